package org.blockfilter.server.p2p.internal;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.server.p2p.P2pConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One inbound peer: reads its frames on the calling thread ({@link #run}), answers them through
 * {@link Bip157Responder}, and writes through an {@link Outbox} on its own writer thread. A
 * {@code tx} is relayed to the node through {@link PeerRelays} on the server's relay threads, so
 * the node's verdict (up to the accept wait) does not hold up the peer's other requests; a
 * {@code getdata} or {@code inv} of transactions, whose answer depends on those verdicts, is
 * answered after them. Keeps the peer's handshake state, ban score and flood budget. The
 * housekeeping thread calls {@link #tick} for timeouts and pings and {@link #announce} for new
 * tips. Thread-safe as used: reader, writer, relay and housekeeping threads touch disjoint or
 * volatile state.
 */
public final class PeerSession implements Runnable, InboundSlots.Peer {
    private static final Logger LOG = LoggerFactory.getLogger(PeerSession.class);
    /** Core's PROTOCOL_VERSION at BIP 339 / BIP 155. */
    public static final int PROTOCOL_VERSION = 70016;
    /** Core's MIN_PEER_PROTO_VERSION. */
    static final int MIN_PEER_PROTO_VERSION = 31800;

    static final String USER_AGENT = "/blockfilter:0.1.0/";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Transactions requested from one {@code inv}. */
    static final int MAX_TX_REQUESTS_PER_INV = 100;

    /** Called once when the session ends, with the reason. */
    public interface Listener {
        void closed(PeerSession session, String reason);
    }

    private final Socket socket;
    private final InetAddress address;
    private final P2pConfig config;
    private final Bip157Responder responder;
    private final P2pMetrics metrics;
    private final BanList bans;
    private final Listener listener;
    private final boolean local;
    private final String netgroup;
    private final byte[] magic;
    private final Outbox outbox;
    private final PeerRelays relays;
    private volatile Transport transport;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final long connectedNanos = System.nanoTime();

    private volatile long lastReceiveNanos = connectedNanos;
    private volatile long lastPingNanos = connectedNanos;
    private volatile long writeStartedNanos;
    private volatile boolean versionReceived;
    private volatile boolean verackReceived;
    private volatile boolean sendHeaders;
    private volatile boolean wtxidRelay;
    private volatile String closeReason = "closed";
    private volatile long pingNonce;
    private volatile long pingSentNanos;
    private volatile long minPingNanos = Long.MAX_VALUE;
    private volatile long lastUsefulNanos;

    // Reader thread only.
    private int banScore;
    private double floodTokens;
    private long floodRefillNanos = connectedNanos;

    public PeerSession(
            Socket socket,
            P2pConfig config,
            Bip157Responder responder,
            P2pMetrics metrics,
            BanList bans,
            InboundSlots slots,
            Executor relayThreads,
            RelayBudget relayBudget,
            Listener listener) {
        this.socket = socket;
        this.address = socket.getInetAddress();
        this.local = slots.isLocal(address);
        this.netgroup = slots.netgroup(address);
        this.config = config;
        this.responder = responder;
        this.metrics = metrics;
        this.bans = bans;
        this.listener = listener;
        this.magic = MessageFrame.magicBytes(config.magic());
        this.outbox = new Outbox(config.sendQueueBytes());
        this.relays = new PeerRelays(relayThreads, relayBudget);
        this.floodTokens = config.floodBurst();
    }

    @Override
    public InetAddress address() {
        return address;
    }

    /** Loopback or a whitelisted range: exempt from the per-address limits, never banned. */
    @Override
    public boolean local() {
        return local;
    }

    @Override
    public String netgroup() {
        return netgroup;
    }

    @Override
    public long connectedNanos() {
        return connectedNanos;
    }

    @Override
    public long minPingNanos() {
        return minPingNanos;
    }

    @Override
    public long lastUsefulNanos() {
        return lastUsefulNanos;
    }

    public boolean handshakeDone() {
        return versionReceived && verackReceived;
    }

    @Override
    public void run() {
        try {
            try {
                transport = Transports.accept(
                        socket.getInputStream(),
                        socket.getOutputStream(),
                        config.magic(),
                        (config.services() & P2pConfig.NODE_P2P_V2) != 0,
                        metrics.payloadBuffer(),
                        () -> lastReceiveNanos = System.nanoTime());
            } catch (Violation v) {
                misbehaved(v);
                return;
            }
            metrics.session(transport.name());
            Thread writer = new Thread(this::writeLoop, "p2p-writer-" + socket.getRemoteSocketAddress());
            writer.setDaemon(true);
            writer.start();
            while (!closed.get()) {
                FrameReader.Frame frame;
                try {
                    frame = transport.next();
                } catch (Violation v) {
                    misbehaved(v);
                    break; // the framing is lost: nothing after this can be read
                }
                try {
                    handle(frame);
                } catch (Violation v) {
                    misbehaved(v);
                }
            }
        } catch (EOFException e) {
            close("peer_closed");
        } catch (IOException e) {
            close(closed.get() ? closeReason : "io_error");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close("interrupted");
        } catch (RuntimeException e) {
            // A bug of ours must cost one connection, not the server.
            LOG.warn("event=p2p_peer_error peer={} error=\"{}\"", address.getHostAddress(), e.toString(), e);
            close("internal_error");
        } finally {
            close(closeReason);
        }
    }

    private void handle(FrameReader.Frame frame) throws InterruptedException {
        String command = frame.command();
        metrics.received(command, transport.wireLength(command, frame.payload().length));
        long t0 = System.nanoTime();
        spendFloodToken(t0);
        if (!frame.checksumOk()) {
            throw Violation.score("bad_checksum", 10, command + " with a bad checksum");
        }
        Message m;
        try {
            m = MessageCodec.decode(command, frame.payload());
        } catch (WireFormatException e) {
            throw Violation.ban("malformed", command + ": " + e.getMessage());
        }
        dispatch(m);
        metrics.handled(command, System.nanoTime() - t0);
    }

    private void spendFloodToken(long now) {
        floodTokens = Math.min(config.floodBurst(), floodTokens + (now - floodRefillNanos) / 1e9 * config.floodRate());
        floodRefillNanos = now;
        if (floodTokens < 1) {
            throw Violation.score("flood", 1, "more than " + config.floodRate() + " messages a second");
        }
        floodTokens -= 1;
    }

    private void dispatch(Message m) throws InterruptedException {
        if (m instanceof Message.Version v) {
            version(v);
            return;
        }
        if (!versionReceived) {
            throw Violation.score("before_version", 1, m.command() + " before version");
        }
        if (m instanceof Message.Verack) {
            if (!verackReceived) {
                verackReceived = true;
                ping(System.nanoTime()); // a first round trip, so eviction can tell fast peers from slow ones
            }
            return;
        }
        if (m instanceof Message.Unknown u) {
            unknown(u.command());
            return;
        }
        if (!verackReceived) {
            return; // Core ignores everything else before verack
        }
        if (m instanceof Message.Ping p) {
            send(new Message.Pong(p.nonce()));
            return;
        }
        if (m instanceof Message.Pong p) {
            pong(p.nonce());
            return;
        }
        if (m instanceof Message.GetHeaders
                || m instanceof Message.GetCFilters
                || m instanceof Message.GetCFHeaders
                || m instanceof Message.GetCFCheckpt
                || m instanceof Message.GetData
                || m instanceof Message.Tx) {
            lastUsefulNanos = System.nanoTime(); // what a client is here for; pings and silence are not
        }
        if (m instanceof Message.GetHeaders g) {
            Optional<Message.Headers> headers = responder.headers(g);
            if (headers.isPresent()) {
                send(headers.get());
            }
        } else if (m instanceof Message.GetCFilters g) {
            responder.cfilters(g, this::send);
        } else if (m instanceof Message.GetCFHeaders g) {
            Optional<Message.CFHeaders> h = responder.cfheaders(g);
            if (h.isPresent()) {
                send(h.get());
            }
        } else if (m instanceof Message.GetCFCheckpt g) {
            Optional<Message.CFCheckpt> c = responder.cfcheckpt(g);
            if (c.isPresent()) {
                send(c.get());
            }
        } else if (m instanceof Message.GetData g) {
            if (g.items().stream().anyMatch(PeerSession::isTx)) {
                relays.awaitIdle(); // served or notfound by the node's verdict on the peer's earlier tx
            }
            responder.getData(g, this::send);
        } else if (m instanceof Message.Inv inv) {
            if (inv.items().stream().anyMatch(PeerSession::isTx)) {
                relays.awaitIdle(); // not asked for again while its relay is pending
            }
            List<Message.InvItem> want = responder.wanted(inv, MAX_TX_REQUESTS_PER_INV);
            if (!want.isEmpty()) {
                send(new Message.GetData(want));
            }
        } else if (m instanceof Message.Tx tx) {
            relays.submit(() -> relay(tx), tx.raw().length);
        }
        // headers, notfound, block, reject, cfilter, cfheaders, cfcheckpt from a client: nothing to do.
    }

    private static boolean isTx(Message.InvItem item) {
        return item.type() == Message.MSG_TX || item.type() == Message.MSG_WITNESS_TX || item.type() == Message.MSG_WTX;
    }

    /**
     * On a relay thread: the node's verdict, and a refusal's {@code reject} if the outbox has room
     * (a relay thread never waits for a peer that does not read; a {@code reject} is advisory).
     */
    private void relay(Message.Tx tx) {
        Optional<Message.Reject> reject = responder.relay(tx, wtxidRelay);
        metrics.relayed(reject.isEmpty() ? "accepted" : "rejected");
        if (reject.isPresent()) {
            offer(reject.get());
        }
    }

    private void version(Message.Version v) throws InterruptedException {
        if (versionReceived) {
            throw Violation.score("duplicate_version", 1, "second version message");
        }
        if (v.protocolVersion() < MIN_PEER_PROTO_VERSION) {
            throw Violation.disconnect("obsolete_version", "protocol version " + v.protocolVersion());
        }
        versionReceived = true;
        send(new Message.Version(
                PROTOCOL_VERSION,
                config.services(),
                System.currentTimeMillis() / 1000,
                v.services(),
                new SecureRandom().nextLong(),
                USER_AGENT,
                Math.max(0, responder.tipHeight()),
                true));
        send(new Message.Verack());
    }

    private void unknown(String command) {
        switch (command) {
            case "sendheaders" -> sendHeaders = true;
            case "wtxidrelay", "sendaddrv2" -> {
                if (verackReceived) {
                    throw Violation.disconnect("late_" + command, command + " after verack");
                }
                wtxidRelay |= command.equals("wtxidrelay");
            }
            case "filterload", "filteradd", "filterclear" ->
                throw Violation.disconnect("bloom_not_offered", command + " but we do not offer NODE_BLOOM");
            default -> {
                // ignored, as Core ignores messages it does not handle
            }
        }
    }

    private void misbehaved(Violation v) {
        metrics.misbehaved(v.reason());
        banScore += v.score();
        LOG.info(
                "event=p2p_misbehaviour peer={} reason={} score={} total={} detail=\"{}\"",
                address.getHostAddress(),
                v.reason(),
                v.score(),
                banScore,
                v.getMessage());
        if (banScore >= P2pConfig.BAN_THRESHOLD && local) {
            // Behind Tor or a reverse proxy every peer has this address: banning it would ban them all.
            LOG.info("event=p2p_local_not_banned peer={} reason={}", address.getHostAddress(), v.reason());
            close(v.reason());
        } else if (banScore >= P2pConfig.BAN_THRESHOLD) {
            bans.ban(address, config.banDuration());
            metrics.banned();
            LOG.info(
                    "event=p2p_ban peer={} for_s={}",
                    address.getHostAddress(),
                    config.banDuration().toSeconds());
            close("banned");
        } else if (v.disconnect()) {
            close(v.reason());
        }
    }

    /** Queues a message, waiting while the peer's outbox is full. */
    private void send(Message m) throws InterruptedException {
        byte[] payload = MessageCodec.encode(m);
        if (outbox.put(new Outbox.Outgoing(m.command(), payload))) {
            metrics.sent(m.command(), transport.wireLength(m.command(), payload.length));
        }
    }

    /** Queues a message if there is room; for the housekeeping thread, which must never wait. */
    private void offer(Message m) {
        byte[] payload = MessageCodec.encode(m);
        if (outbox.offer(new Outbox.Outgoing(m.command(), payload))) {
            metrics.sent(m.command(), transport.wireLength(m.command(), payload.length));
        }
    }

    /** Announces a new tip: its headers if the peer asked with sendheaders and they are few, else an inv. */
    public void announce(Sha256Hash tip, List<byte[]> headers) {
        if (!handshakeDone() || closed.get()) {
            return;
        }
        if (sendHeaders && !headers.isEmpty()) {
            offer(new Message.Headers(headers));
        } else {
            offer(new Message.Inv(List.of(new Message.InvItem(Message.MSG_BLOCK, tip))));
        }
    }

    /** Timeouts and pings; called periodically by the housekeeping thread. */
    public void tick(long now) {
        if (closed.get()) {
            return;
        }
        long writing = writeStartedNanos;
        if (!handshakeDone() && now - connectedNanos > config.handshakeTimeout().toNanos()) {
            close("handshake_timeout");
        } else if (now - lastReceiveNanos > config.idleTimeout().toNanos()) {
            close("idle_timeout");
        } else if (writing != 0 && now - writing > config.writeTimeout().toNanos()) {
            close("write_timeout");
        } else if (handshakeDone()
                && now - lastPingNanos > config.pingInterval().toNanos()) {
            ping(now);
        }
    }

    private void ping(long now) {
        long nonce = RANDOM.nextLong();
        pingNonce = nonce;
        pingSentNanos = now;
        lastPingNanos = now;
        offer(new Message.Ping(nonce));
    }

    private void pong(long nonce) {
        long sent = pingSentNanos;
        if (sent != 0 && nonce == pingNonce) {
            pingSentNanos = 0;
            minPingNanos = Math.min(minPingNanos, Math.max(1, System.nanoTime() - sent));
        }
    }

    private void writeLoop() {
        try {
            while (true) {
                Outbox.Outgoing message = outbox.take();
                if (message == null) {
                    return;
                }
                writeStartedNanos = System.nanoTime();
                transport.write(message.command(), message.payload());
                writeStartedNanos = 0;
            }
        } catch (IOException e) {
            close(closed.get() ? closeReason : "io_error");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close("interrupted");
        }
    }

    /** Closes the connection once; later calls do nothing. */
    public void close(String reason) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closeReason = reason;
        outbox.close();
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing to recover
        }
        metrics.disconnected(reason);
        LOG.debug("event=p2p_disconnect peer={} reason={}", address.getHostAddress(), reason);
        listener.closed(this, reason);
    }

    /** The wire frame of a payload: magic, NUL-padded command, length, checksum, payload. */
    public static byte[] frame(byte[] magic, String command, byte[] payload) {
        return MessageFrame.encode(magic, command, payload);
    }
}
