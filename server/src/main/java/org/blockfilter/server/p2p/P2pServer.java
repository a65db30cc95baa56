package org.blockfilter.server.p2p;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.blockfilter.server.node.BlockCache;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.p2p.internal.BanList;
import org.blockfilter.server.p2p.internal.Bip157Responder;
import org.blockfilter.server.p2p.internal.InboundSlots;
import org.blockfilter.server.p2p.internal.P2pMetrics;
import org.blockfilter.server.p2p.internal.PeerSession;
import org.blockfilter.server.p2p.internal.RelayBudget;
import org.blockfilter.server.p2p.internal.RelayedTxs;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.store.ChainTip;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BIP 157 P2P listener: serves block headers, compact filters, filter headers, checkpoints,
 * blocks and transaction relay to light clients over the Bitcoin wire protocol, from the same
 * filter index as the REST API (docs/p2p.md). One reader and one writer thread per peer, an
 * accept thread, a housekeeping thread (timeouts, pings, tip announcements) and {@link
 * #RELAY_THREADS} threads that relay peers' transactions to the node. Start with {@link #start},
 * stop with {@link #close}. Thread-safe.
 */
public final class P2pServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(P2pServer.class);
    private static final int ACCEPT_BACKLOG = 1024;
    /**
     * Threads relaying peers' transactions, shared by all peers; each peer's relays run one at a
     * time, so a peer holds at most one and its queue is bounded (docs/p2p.md, "Relay"). A relay
     * mostly waits for the node, up to its accept wait.
     */
    static final int RELAY_THREADS = 4;
    /** Bytes of transactions queued for relay across all peers before a reader waits (docs/p2p.md, "Relay"). */
    static final long RELAY_QUEUE_BYTES = 16L << 20;

    private final P2pConfig config;
    private final FilterIndexReader index;
    private final ServerSocket listener;
    private final Bip157Responder responder;
    private final P2pMetrics metrics;
    private final BanList bans = new BanList();
    private final InboundSlots slots;
    private final Set<PeerSession> peers = ConcurrentHashMap.newKeySet();
    private final Set<Thread> readers = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService housekeeping;
    // Unbounded queue, bounded in practice: it holds at most one task per peer whose relays are pending.
    private final ExecutorService relayThreads;
    private final RelayBudget relayBudget = new RelayBudget(RELAY_QUEUE_BYTES);
    private final Thread acceptor;
    private volatile ChainTip announcedTip;
    private volatile boolean closing;

    private P2pServer(P2pConfig config, FilterIndexReader index, NodeGateway node, MeterRegistry registry)
            throws IOException {
        this.config = config;
        this.index = index;
        BlockCache blocks = new BlockCache(node, config.blockCacheBytes());
        this.responder = new Bip157Responder(index, node, blocks, new RelayedTxs(1000, 16L << 20));
        this.metrics = new P2pMetrics(registry, blocks::bytes);
        this.slots = new InboundSlots(config.slots(), config.maxPeers(), new java.security.SecureRandom().nextLong());
        this.listener = new ServerSocket();
        listener.setReuseAddress(true);
        // A deep accept queue: when a connection storm overflows it, the kernel drops SYNs and an honest
        // client waits a whole second for its retransmission; refusing on accept is cheap.
        listener.bind(new InetSocketAddress(InetAddress.getByName(config.host()), config.port()), ACCEPT_BACKLOG);
        this.announcedTip = index.tip();
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "p2p-housekeeping");
            t.setDaemon(true);
            return t;
        });
        AtomicInteger relayThreadCount = new AtomicInteger();
        this.relayThreads = Executors.newFixedThreadPool(RELAY_THREADS, r -> {
            Thread t = new Thread(r, "p2p-relay-" + relayThreadCount.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.acceptor = new Thread(this::acceptLoop, "p2p-accept");
        acceptor.setDaemon(true);
    }

    /**
     * Binds {@code config.host():config.port()} and starts serving.
     *
     * @throws IOException if the address cannot be bound
     */
    public static P2pServer start(P2pConfig config, FilterIndexReader index, NodeGateway node, MeterRegistry registry)
            throws IOException {
        P2pServer server = new P2pServer(
                Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(index, "index"),
                Objects.requireNonNull(node, "node"),
                Objects.requireNonNull(registry, "registry"));
        long period = config.tipPollInterval().toMillis();
        server.housekeeping.scheduleWithFixedDelay(server::housekeep, period, period, TimeUnit.MILLISECONDS);
        server.acceptor.start();
        LOG.info(
                "event=p2p_listening address={} network={} services=0x{}",
                server.address(),
                config.network(),
                Long.toHexString(config.services()));
        return server;
    }

    private void acceptLoop() {
        while (!closing) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (SocketException e) {
                return; // closed
            } catch (IOException e) {
                LOG.warn("event=p2p_accept_failed error=\"{}\"", e.toString());
                continue;
            }
            try {
                serve(socket);
            } catch (RuntimeException e) {
                // A bug of ours must cost one connection, not the listener: a dead accept thread
                // leaves every later client waiting in the kernel's queue for an answer.
                LOG.warn("event=p2p_accept_failed error=\"{}\"", e.toString(), e);
                closeQuietly(socket);
            }
        }
    }

    /** Admits a new connection and starts its session, or closes it. */
    private void serve(Socket socket) {
        if (!admit(socket)) {
            closeQuietly(socket);
            return;
        }
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
        } catch (SocketException e) {
            closeQuietly(socket); // gone already
            return;
        }
        PeerSession session = new PeerSession(
                socket, config, responder, metrics, bans, slots, relayThreads, relayBudget, this::removed);
        peers.add(session);
        metrics.peers().set(peers.size());
        Thread reader = new Thread(
                () -> {
                    try {
                        session.run();
                    } finally {
                        readers.remove(Thread.currentThread());
                    }
                },
                "p2p-peer-" + socket.getRemoteSocketAddress());
        reader.setDaemon(true);
        readers.add(reader);
        reader.start();
    }

    /** Bans, then the slot rules (docs/p2p.md, "Slots"): refuses, or makes room by evicting a peer. */
    private boolean admit(Socket socket) {
        InetAddress address = socket.getInetAddress();
        if (bans.isBanned(address)) {
            metrics.refused("banned");
            return false;
        }
        InboundSlots.Decision<PeerSession> decision = slots.admit(address, List.copyOf(peers));
        if (decision instanceof InboundSlots.Decision.Refuse<PeerSession> r) {
            metrics.refused(r.reason());
            return false;
        }
        if (decision instanceof InboundSlots.Decision.Evict<PeerSession> e) {
            PeerSession victim = e.victim();
            LOG.debug("event=p2p_evict peer={} for={}", victim.address().getHostAddress(), address.getHostAddress());
            victim.close("evicted"); // removes it from peers before returning
        }
        return true;
    }

    private void removed(PeerSession session, String reason) {
        peers.remove(session);
        metrics.peers().set(peers.size());
    }

    private void housekeep() {
        try {
            long now = System.nanoTime();
            for (PeerSession p : peers) {
                p.tick(now);
            }
            ChainTip tip = index.tip();
            ChainTip old = announcedTip;
            if (tip.height() >= 0 && !tip.hash().equals(old.hash())) {
                announcedTip = tip;
                List<byte[]> headers = old.height() < 0 ? List.of() : responder.newHeaders(old.hash(), tip);
                for (PeerSession p : peers) {
                    p.announce(tip.hash(), headers);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("event=p2p_housekeeping_failed error=\"{}\"", e.toString(), e);
        }
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Peers connected now. */
    public int peerCount() {
        return peers.size();
    }

    /** Bytes allocated right now for payloads being received, across all peers. */
    public long payloadBufferBytes() {
        return metrics.payloadBuffer().get();
    }

    /** Whether connections from this address are refused (its ban score reached the threshold). */
    public boolean isBanned(InetAddress address) {
        return bans.isBanned(address);
    }

    @Override
    public void close() {
        closing = true;
        closeQuietly(listener);
        housekeeping.shutdownNow();
        for (PeerSession p : peers) {
            p.close("shutdown");
        }
        // Readers may be inside an index read: let them finish before the caller closes the store.
        // Relays already queued finish too (a peer's broadcast is not dropped), within the same wait.
        long deadline = System.nanoTime() + 5_000_000_000L;
        try {
            acceptor.join(5_000);
            for (Thread t : readers) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
            relayThreads.shutdown();
            if (!relayThreads.awaitTermination(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                relayThreads.shutdownNow();
            }
        } catch (InterruptedException e) {
            relayThreads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing: nothing to recover
        }
    }
}
