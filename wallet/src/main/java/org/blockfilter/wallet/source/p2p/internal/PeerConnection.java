package org.blockfilter.wallet.source.p2p.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.p2p.v2.V2Exception;
import org.blockfilter.filters.p2p.v2.V2Transport;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.wallet.source.net.Dialer;
import org.blockfilter.wallet.source.p2p.P2pTransport;

/**
 * One TCP connection to a Bitcoin peer: message framing (magic, 12-byte command, length,
 * double-SHA256 checksum), the version handshake, and reads bounded by a deadline. Pings from
 * the peer are answered while reading. Frames are checked before their payload is read: a wrong
 * magic, a malformed command, a payload above {@link MessageCodec#maxPayload} or a bad checksum
 * is a {@link WireFormatException}. What went wrong with the connection is said by the exception:
 * {@link UnknownHostException} (the name did not resolve), {@link ConnectException} (refused),
 * {@link Closed} (the peer closed it) and {@link Silent} (no TCP connection in time, nothing
 * arrived for the silence bound, or the answer was not complete by the deadline).
 *
 * <p>Not thread-safe: one caller at a time (P2pSource serializes its calls).
 */
public final class PeerConnection implements AutoCloseable {
    public static final int PROTOCOL_VERSION = 70016;
    /** BIP 339: the first protocol version that may negotiate wtxid relay. */
    public static final int WTXID_RELAY_VERSION = 70016;

    private static final String WTXID_RELAY = "wtxidrelay";

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] magic;
    /** The BIP 324 transport, or null on a v1 connection. */
    private V2Transport v2;
    /** The deadline of the read under way, for the v2 transport's reads. */
    private long readDeadline;

    private long silenceMillis;
    private Message.Version peerVersion;
    private boolean wtxidRelay;
    private String stage = "during the version handshake";
    /** When the peer last sent a byte, or we last sent a message ({@link System#nanoTime()}). */
    private long lastHeard = System.nanoTime();

    /** The peer closed the connection. */
    public static final class Closed extends IOException {
        private static final long serialVersionUID = 1L;

        Closed(String stage) {
            super("the peer closed the connection " + stage);
        }
    }

    /** Nothing, or not the whole answer, arrived in time. */
    public static final class Silent extends SocketTimeoutException {
        private static final long serialVersionUID = 1L;

        Silent(String message) {
            super(message);
        }
    }

    private PeerConnection(Socket socket, long packetMagic, long silenceMillis) throws IOException {
        this.socket = socket;
        this.silenceMillis = silenceMillis;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.magic = MessageFrame.magicBytes(packetMagic);
    }

    /**
     * Connects and completes the version handshake. We advertise NODE_WITNESS only (no
     * NODE_NETWORK: we serve nothing) so that the peer reads our transactions with witnesses,
     * and relay=false so that it does not announce its mempool to us. An unresolved address is
     * resolved here. The handshake must be done within {@code timeoutMillis}; every read of this
     * connection fails once the peer has sent nothing for {@code silenceMillis}.
     */
    public static PeerConnection open(
            InetSocketAddress peer, long packetMagic, long timeoutMillis, long silenceMillis, String userAgent)
            throws IOException {
        return open(
                Dialer.DIRECT, peer, packetMagic, timeoutMillis, silenceMillis, userAgent, false, P2pTransport.AUTO);
    }

    /**
     * As {@link #open(InetSocketAddress, long, long, long, String)}; with {@code relay} true the peer
     * announces the transactions it accepts to this connection (BIP 37's relay flag). {@code
     * transport} {@link P2pTransport#AUTO} starts with BIP 324 and, when the peer closes the
     * connection at our v2 key (a v1-only peer), connects again with v1 within the same timeout.
     * {@code dialer} opens the TCP connection (directly, or through a SOCKS5 proxy).
     */
    public static PeerConnection open(
            Dialer dialer,
            InetSocketAddress peer,
            long packetMagic,
            long timeoutMillis,
            long silenceMillis,
            String userAgent,
            boolean relay,
            P2pTransport transport)
            throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        if (transport == P2pTransport.V1) {
            return open(dialer, peer, packetMagic, deadline, silenceMillis, userAgent, relay, false);
        }
        try {
            return open(dialer, peer, packetMagic, deadline, silenceMillis, userAgent, relay, true);
        } catch (V2Exception e) {
            if (transport == P2pTransport.V2 || !e.reason().equals(V2Exception.NOT_SUPPORTED)) {
                throw new IOException("BIP 324 v2 transport failed: " + e.getMessage(), e);
            }
            return open(dialer, peer, packetMagic, deadline, silenceMillis, userAgent, relay, false);
        }
    }

    private static PeerConnection open(
            Dialer dialer,
            InetSocketAddress peer,
            long packetMagic,
            long deadline,
            long silenceMillis,
            String userAgent,
            boolean relay,
            boolean v2)
            throws IOException {
        long timeoutMillis = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        String address = peer.getHostString() + ":" + peer.getPort();
        Socket socket;
        try {
            // The name stays unresolved here: the dialer resolves it, or hands it to the proxy.
            socket = dialer.connect(
                    peer.getHostString(), peer.getPort(), (int) Math.max(1, Math.min(timeoutMillis, silenceMillis)));
        } catch (SocketTimeoutException e) {
            throw new Silent(
                    dialer.direct()
                            ? "no TCP connection to " + address + " within " + Math.min(timeoutMillis, silenceMillis)
                                    + " ms"
                            : e.getMessage());
        } catch (ConnectException e) {
            throw dialer.direct()
                    ? new ConnectException(address + " refused the connection (" + e.getMessage() + ")")
                    : e;
        }
        try {
            socket.setTcpNoDelay(true);
            PeerConnection c = new PeerConnection(socket, packetMagic, silenceMillis);
            if (v2) {
                c.readDeadline = deadline;
                c.v2 = V2Transport.initiate(c::readV2, c.out, c.magic, new SecureRandom());
            }
            c.handshake(deadline, userAgent, relay);
            c.stage = "after our request";
            return c;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Whether this connection speaks BIP 324 v2. */
    public boolean v2() {
        return v2 != null;
    }

    /**
     * BIP 339: a peer of protocol 70016 or later that supports wtxid relay sends {@code
     * wtxidrelay} after its version and before its verack; we send ours at the same point, so
     * when the peer sent one, both did and transactions are announced by wtxid.
     */
    private void handshake(long deadline, String userAgent, boolean relay) throws IOException {
        long nonce = new SecureRandom().nextLong();
        send(new Message.Version(
                PROTOCOL_VERSION,
                Message.NODE_WITNESS,
                System.currentTimeMillis() / 1000,
                0,
                nonce,
                userAgent,
                0,
                relay));
        boolean verackSeen = false;
        while (peerVersion == null || !verackSeen) {
            Message m = receive(deadline);
            if (m instanceof Message.Version v) {
                if (peerVersion != null) {
                    throw new WireFormatException("version", null, 0, "peer sent a second version message");
                }
                if (v.nonce() == nonce) {
                    throw new IOException("connected to ourselves");
                }
                peerVersion = v;
                if (v.protocolVersion() >= WTXID_RELAY_VERSION) {
                    sendEmpty(WTXID_RELAY);
                }
                send(new Message.Verack());
            } else if (m instanceof Message.Verack) {
                verackSeen = true;
            } else if (m instanceof Message.Unknown u
                    && u.command().equals(WTXID_RELAY)
                    && peerVersion != null
                    && peerVersion.protocolVersion() >= WTXID_RELAY_VERSION) {
                wtxidRelay = true;
            }
        }
    }

    /** True when both sides sent {@code wtxidrelay} (BIP 339): transactions are announced by wtxid. */
    public boolean wtxidRelay() {
        return wtxidRelay;
    }

    /**
     * From now on a read fails once the peer has sent nothing for {@code millis}; for waits in
     * which silence is expected (a peer that takes its time to ask for a transaction or announce
     * it), not for a request's answer.
     */
    public void allowSilence(long millis) {
        this.silenceMillis = Math.max(1, millis);
    }

    /** The silence a read allows now, in milliseconds. */
    public long silenceMillis() {
        return silenceMillis;
    }

    /** The peer's version message. */
    public Message.Version peerVersion() {
        return peerVersion;
    }

    public void send(Message m) throws IOException {
        write(m.command(), MessageCodec.encode(m));
        lastHeard = System.nanoTime();
    }

    private void sendEmpty(String command) throws IOException {
        write(command, new byte[0]);
    }

    private void write(String command, byte[] payload) throws IOException {
        if (v2 != null) {
            v2.write(command, payload);
        } else {
            out.write(MessageFrame.encode(magic, command, payload));
        }
        out.flush();
    }

    /**
     * The next message other than a ping (answered with a pong on the way), waiting until the
     * deadline ({@link System#nanoTime()}) at most.
     */
    public Message receive(long deadline) throws IOException {
        while (true) {
            Message m = v2 != null ? receiveV2(deadline) : receiveV1(deadline);
            if (m instanceof Message.Ping p) {
                send(new Message.Pong(p.nonce()));
                continue;
            }
            return m;
        }
    }

    private Message receiveV1(long deadline) throws IOException {
        MessageFrame.Header f = MessageFrame.parseHeader(magic, readFully(MessageFrame.HEADER_LENGTH, deadline));
        return MessageFrame.decodeChecked(f, readFully(f.length(), deadline));
    }

    /** A v2 message, with v1's per-command payload caps (the packet's size was capped before it was read). */
    private Message receiveV2(long deadline) throws IOException {
        readDeadline = deadline;
        V2Transport.Received r = v2.read();
        int cap = MessageCodec.maxPayload(r.command());
        if (r.payload().length > cap) {
            throw new WireFormatException(
                    "length", r.payload().length, 0, r.command() + " payload exceeds " + cap + " bytes");
        }
        return MessageCodec.decode(r.command(), r.payload());
    }

    private void readV2(byte[] b, int off, int len) throws IOException {
        readFully(b, off, len, readDeadline);
    }

    private byte[] readFully(int n, long deadline) throws IOException {
        byte[] buf = new byte[n];
        readFully(buf, 0, n, deadline);
        return buf;
    }

    private void readFully(byte[] buf, int start, int len, long deadline) throws IOException {
        int n = start + len;
        int off = start;
        while (off < n) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new Silent("the answer was not complete within the deadline " + stage);
            }
            int wait = (int) Math.min(Integer.MAX_VALUE, Math.min(left, silenceMillis));
            socket.setSoTimeout(wait);
            int r;
            try {
                r = in.read(buf, off, n - off);
            } catch (SocketTimeoutException e) {
                long quiet = (System.nanoTime() - lastHeard) / 1_000_000;
                throw new Silent((wait < silenceMillis ? "the request's deadline passed; " : "")
                        + "the peer was silent for " + quiet + " ms " + stage);
            }
            lastHeard = System.nanoTime();
            if (r < 0) {
                throw new Closed(stage);
            }
            off += r;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing a socket we are done with: nothing to recover.
        }
    }
}
