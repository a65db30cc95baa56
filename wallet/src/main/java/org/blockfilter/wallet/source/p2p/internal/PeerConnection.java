package org.blockfilter.wallet.source.p2p.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * One TCP connection to a Bitcoin peer: message framing (magic, 12-byte command, length,
 * double-SHA256 checksum), the version handshake, and reads bounded by a deadline. Pings from
 * the peer are answered while reading. Frames are checked before their payload is read: a wrong
 * magic, a malformed command, a payload above {@link MessageCodec#maxPayload} or a bad checksum
 * is a {@link WireFormatException}; a peer that is silent past the deadline is a {@link
 * SocketTimeoutException}.
 *
 * <p>Not thread-safe: one caller at a time (P2pSource serializes its calls).
 */
public final class PeerConnection implements AutoCloseable {
    public static final int PROTOCOL_VERSION = 70016;
    private static final int HEADER_LENGTH = 24;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] magic;
    private Message.Version peerVersion;

    private PeerConnection(Socket socket, long packetMagic) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.magic = new byte[] {
            (byte) (packetMagic >>> 24), (byte) (packetMagic >>> 16), (byte) (packetMagic >>> 8), (byte) packetMagic
        };
    }

    /**
     * Connects and completes the version handshake. We advertise NODE_WITNESS only (no
     * NODE_NETWORK: we serve nothing) so that the peer reads our transactions with witnesses,
     * and relay=false so that it does not announce its mempool to us.
     */
    public static PeerConnection open(InetSocketAddress peer, long packetMagic, long timeoutMillis, String userAgent)
            throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(peer, (int) Math.max(1, timeoutMillis));
            PeerConnection c = new PeerConnection(socket, packetMagic);
            c.handshake(deadline, userAgent);
            return c;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private void handshake(long deadline, String userAgent) throws IOException {
        long nonce = new SecureRandom().nextLong();
        send(new Message.Version(
                PROTOCOL_VERSION,
                Message.NODE_WITNESS,
                System.currentTimeMillis() / 1000,
                0,
                nonce,
                userAgent,
                0,
                false));
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
                send(new Message.Verack());
            } else if (m instanceof Message.Verack) {
                verackSeen = true;
            }
        }
    }

    /** The peer's version message. */
    public Message.Version peerVersion() {
        return peerVersion;
    }

    public void send(Message m) throws IOException {
        out.write(frame(magic, m.command(), MessageCodec.encode(m)));
        out.flush();
    }

    /** The wire frame of a payload. */
    public static byte[] frame(byte[] magic, String command, byte[] payload) {
        byte[] frame = new byte[HEADER_LENGTH + payload.length];
        System.arraycopy(magic, 0, frame, 0, 4);
        byte[] cmd = command.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(cmd, 0, frame, 4, cmd.length);
        int n = payload.length;
        frame[16] = (byte) n;
        frame[17] = (byte) (n >>> 8);
        frame[18] = (byte) (n >>> 16);
        frame[19] = (byte) (n >>> 24);
        System.arraycopy(Sha256Hash.hashTwice(payload), 0, frame, 20, 4);
        System.arraycopy(payload, 0, frame, HEADER_LENGTH, n);
        return frame;
    }

    /**
     * The next message other than a ping (answered with a pong on the way), waiting until the
     * deadline ({@link System#nanoTime()}) at most.
     */
    public Message receive(long deadline) throws IOException {
        while (true) {
            byte[] header = readFully(HEADER_LENGTH, deadline);
            Frame f = parseHeader(magic, header);
            byte[] payload = readFully(f.length(), deadline);
            Message m = decodeChecked(f, payload);
            if (m instanceof Message.Ping p) {
                send(new Message.Pong(p.nonce()));
                continue;
            }
            return m;
        }
    }

    /** A frame header: the command and payload length, checked; and the checksum to compare. */
    public record Frame(String command, int length, byte[] checksum) {}

    public static Frame parseHeader(byte[] magic, byte[] header) {
        if (!Arrays.equals(magic, 0, 4, header, 0, 4)) {
            throw new WireFormatException("magic", null, 0, "wrong network magic " + hex(Arrays.copyOf(header, 4)));
        }
        int end = 4;
        while (end < 16 && header[end] != 0) {
            byte c = header[end];
            if (c < 0x21 || c > 0x7e) {
                throw new WireFormatException("command", null, end, "non-printable byte " + (c & 0xff));
            }
            end++;
        }
        if (end == 4) {
            throw new WireFormatException("command", null, 4, "empty command");
        }
        for (int i = end; i < 16; i++) {
            if (header[i] != 0) {
                throw new WireFormatException("command", null, i, "bytes after the NUL padding");
            }
        }
        String command = new String(header, 4, end - 4, StandardCharsets.US_ASCII);
        long length = (header[16] & 0xffL)
                | (header[17] & 0xffL) << 8
                | (header[18] & 0xffL) << 16
                | (header[19] & 0xffL) << 24;
        int cap = MessageCodec.maxPayload(command);
        if (length > cap) {
            throw new WireFormatException(
                    "length", null, 16, command + " payload of " + length + " bytes exceeds " + cap);
        }
        return new Frame(command, (int) length, Arrays.copyOfRange(header, 20, 24));
    }

    public static Message decodeChecked(Frame f, byte[] payload) {
        byte[] sum = Arrays.copyOf(Sha256Hash.hashTwice(payload), 4);
        if (!Arrays.equals(sum, f.checksum())) {
            throw new WireFormatException(
                    "checksum",
                    null,
                    20,
                    f.command() + " checksum " + hex(f.checksum()) + " does not match payload " + hex(sum));
        }
        return MessageCodec.decode(f.command(), payload);
    }

    private byte[] readFully(int n, long deadline) throws IOException {
        byte[] buf = new byte[n];
        int off = 0;
        while (off < n) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new SocketTimeoutException("no answer before the deadline");
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            int r = in.read(buf, off, n - off);
            if (r < 0) {
                throw new IOException("peer closed the connection");
            }
            off += r;
        }
        return buf;
    }

    private static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
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
