package org.blockfilter.server.p2p;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.server.p2p.internal.FrameReader;
import org.blockfilter.server.p2p.internal.PeerSession;

/** A scripted client of the P2P listener for tests: raw bytes or messages, reads with a deadline. Not thread-safe. */
final class TestPeer implements AutoCloseable {
    static final long REGTEST_MAGIC = 0xfabfb5daL;
    static final byte[] MAGIC = {(byte) 0xfa, (byte) 0xbf, (byte) 0xb5, (byte) 0xda};

    private final Socket socket;
    private final OutputStream out;
    private final FrameReader reader;

    private TestPeer(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        this.reader = new FrameReader(in, REGTEST_MAGIC, new AtomicLong(), () -> {});
        socket.setSoTimeout(10_000);
    }

    /** Connects from {@code localAddress} (e.g. 127.0.0.2, so that bans do not hit other tests' peers). */
    static TestPeer connect(P2pServer server, String localAddress) {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress(localAddress, 0));
            s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            return new TestPeer(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Connects from 127.0.0.1 and completes the version handshake. */
    static TestPeer handshake(P2pServer server) {
        return handshake(server, "127.0.0.1");
    }

    /** Connects from {@code localAddress} and completes the version handshake. */
    static TestPeer handshake(P2pServer server, String localAddress) {
        return handshake(server, localAddress, false);
    }

    /** Completes the version handshake from 127.0.0.1, sending {@code wtxidrelay} (BIP 339) before our verack. */
    static TestPeer handshakeWtxidRelay(P2pServer server) {
        return handshake(server, "127.0.0.1", true);
    }

    private static TestPeer handshake(P2pServer server, String localAddress, boolean wtxidRelay) {
        TestPeer p = connect(server, localAddress);
        p.send(version());
        if (wtxidRelay) {
            p.raw(PeerSession.frame(MAGIC, "wtxidrelay", new byte[0]));
        }
        Message.Version v = (Message.Version) p.expect("version");
        p.expect("verack");
        p.send(new Message.Verack());
        p.peerVersion = v;
        return p;
    }

    Message.Version peerVersion;

    static Message.Version version() {
        return new Message.Version(
                PeerSession.PROTOCOL_VERSION,
                P2pConfig.NODE_WITNESS,
                System.currentTimeMillis() / 1000,
                0,
                42,
                "/test:1/",
                0,
                false);
    }

    void send(Message m) {
        raw(PeerSession.frame(MAGIC, m.command(), MessageCodec.encode(m)));
    }

    void raw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes; false if the server has closed the connection. */
    boolean tryRaw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The next message (pings answered on the way). */
    Message receive() {
        try {
            while (true) {
                FrameReader.Frame f = reader.next();
                Message m = MessageCodec.decode(f.command(), f.payload());
                if (m instanceof Message.Ping p) {
                    send(new Message.Pong(p.nonce()));
                    continue;
                }
                return m;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Message expect(String command) {
        Message m = receive();
        if (!m.command().equals(command)) {
            throw new AssertionError("expected " + command + ", got " + m);
        }
        return m;
    }

    /** Whether the server closes the connection within the timeout (reading and dropping whatever it sends first). */
    boolean closedWithin(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[8192];
            while (System.nanoTime() < deadline) {
                socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                try {
                    if (in.read(buf) < 0) {
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    return false;
                }
            }
            return false;
        } catch (IOException e) {
            return true; // reset by the server
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // test cleanup
        }
    }
}
