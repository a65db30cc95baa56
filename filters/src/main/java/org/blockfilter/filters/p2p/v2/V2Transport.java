package org.blockfilter.filters.p2p.v2;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.blockfilter.filters.p2p.ProtocolLimits;

/**
 * One BIP 324 connection over a byte stream: the handshake (ElligatorSwift keys, garbage,
 * garbage terminators, version packets, decoys before the version skipped) for either side, then
 * messages in and out as encrypted packets. Stream-level only: the caller owns the socket, its
 * timeouts and deadlines, and reads through an {@link Input} that enforces them.
 *
 * <p>What we send: our key, 0-4095 random garbage bytes (as Bitcoin Core), the terminator, an
 * empty version packet; no decoys. What we accept: garbage up to {@link #MAX_GARBAGE} bytes, any
 * number of decoy packets (ignored, also after the handshake), packets of at most {@link
 * #MAX_CONTENTS} bytes (Core's limit: type plus the 4,000,000-byte protocol cap, checked from the
 * length field before the packet is read; the buffer then grows as bytes arrive, in 64 KiB steps),
 * and messages with short ids the BIP does not define are skipped as the BIP says. Every violation
 * is a {@link V2Exception} and ends the connection.
 *
 * <p>Not thread-safe as a whole: one reader thread may call {@link #read} while one writer thread
 * calls {@link #write}; the two directions share no state.
 */
public final class V2Transport {
    /** Most garbage bytes a peer may send before its terminator (BIP 324). */
    public static final int MAX_GARBAGE = 4095;
    /** Largest packet contents accepted: message type and the protocol's payload cap (Core's MAX_CONTENTS_LEN). */
    public static final int MAX_CONTENTS = 1 + 12 + ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH;

    private static final int CHUNK = 64 << 10;
    private static final byte[] NONE = new byte[0];

    /** Reads exactly {@code len} bytes or throws; the caller's timeouts apply. */
    public interface Input {
        /** Fills {@code b[off .. off + len)} or throws when the stream ends first or the read fails. */
        void readFully(byte[] b, int off, int len) throws IOException;
    }

    /** A received message: its command and payload. */
    public record Received(String command, byte[] payload) {}

    private final Input in;
    private final OutputStream out;
    private final V2Cipher cipher;
    private final LongConsumer buffered;

    private V2Transport(Input in, OutputStream out, V2Cipher cipher, LongConsumer buffered) {
        this.in = in;
        this.out = out;
        this.cipher = cipher;
        this.buffered = buffered;
    }

    /**
     * Opens a connection as initiator. A peer that closes the connection (or resets it) before
     * its 64-byte key arrived does not speak v2 (a v1 node reads our key as a frame with a wrong
     * magic and disconnects): {@link V2Exception#NOT_SUPPORTED}, and the BIP's advice is to
     * reconnect with v1.
     */
    public static V2Transport initiate(Input in, OutputStream out, byte[] magic, SecureRandom random)
            throws IOException {
        EllSwift.KeyPair key;
        do {
            key = EllSwift.create(random);
        } while (Arrays.equals(key.encoded(), 0, 4, magic, 0, 4)); // a responder would take it for v1
        byte[] garbage = garbage(random);
        out.write(V2Cipher.concat(key.encoded(), garbage));
        out.flush();
        byte[] theirs = new byte[EllSwift.ENCODED_LENGTH];
        try {
            in.readFully(theirs, 0, theirs.length);
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            throw new V2Exception(
                    V2Exception.NOT_SUPPORTED, "the peer closed the connection instead of answering our v2 key", e);
        }
        return finish(in, out, magic, key, theirs, garbage, true, random);
    }

    /**
     * Accepts a connection as responder, the peer's first bytes already read (they were not a v1
     * frame's magic). A connection that ends inside the peer's key is {@code v2_truncated_key}.
     */
    public static V2Transport respond(byte[] first, Input in, OutputStream out, byte[] magic, SecureRandom random)
            throws IOException {
        byte[] theirs = Arrays.copyOf(first, EllSwift.ENCODED_LENGTH);
        try {
            in.readFully(theirs, first.length, EllSwift.ENCODED_LENGTH - first.length);
        } catch (EOFException e) {
            throw new V2Exception("v2_truncated_key", "the peer closed the connection inside its 64-byte key", e);
        }
        EllSwift.KeyPair key = EllSwift.create(random);
        byte[] garbage = garbage(random);
        out.write(V2Cipher.concat(key.encoded(), garbage));
        return finish(in, out, magic, key, theirs, garbage, false, random);
    }

    private static V2Transport finish(
            Input in,
            OutputStream out,
            byte[] magic,
            EllSwift.KeyPair key,
            byte[] theirs,
            byte[] ourGarbage,
            boolean initiating,
            SecureRandom random)
            throws IOException {
        byte[] secret = EllSwift.sharedSecret(key.privateKey(), theirs, key.encoded(), initiating);
        V2Cipher cipher = new V2Cipher(secret, magic, initiating);
        // Our terminator and version packet (the garbage authenticated as its AAD).
        out.write(V2Cipher.concat(cipher.sendTerminator(), cipher.encrypt(new byte[0], ourGarbage, false)));
        out.flush();
        byte[] theirGarbage = readGarbage(in, cipher.recvTerminator());
        V2Transport t = new V2Transport(in, out, cipher, n -> {});
        byte[] aad = theirGarbage;
        while (true) { // decoys, then the version packet, whose contents are reserved for future use
            byte[] p = t.readPacket(aad);
            aad = NONE;
            if (!V2Cipher.ignored(p)) {
                break;
            }
        }
        return t;
    }

    private static byte[] garbage(SecureRandom random) {
        byte[] g = new byte[random.nextInt(MAX_GARBAGE + 1)];
        random.nextBytes(g);
        return g;
    }

    private static byte[] readGarbage(Input in, byte[] terminator) throws IOException {
        int t = V2Cipher.TERMINATOR_LENGTH;
        byte[] buf = new byte[MAX_GARBAGE + t];
        in.readFully(buf, 0, t);
        int n = t;
        while (!Arrays.equals(buf, n - t, n, terminator, 0, t)) {
            if (n == buf.length) {
                throw new V2Exception(
                        "v2_no_terminator", "no garbage terminator within " + MAX_GARBAGE + " bytes of garbage");
            }
            in.readFully(buf, n, 1);
            n++;
        }
        return Arrays.copyOf(buf, n - t);
    }

    /** The same transport with {@code buffered} told of the bytes allocated for packets being read. */
    public V2Transport withBufferGauge(LongConsumer gauge) {
        return new V2Transport(in, out, cipher, gauge);
    }

    /** The session id both ends derived (BIP 324: for a later authentication scheme). */
    public byte[] sessionId() {
        return cipher.sessionId();
    }

    /** The next message, skipping decoys and short ids the BIP does not define. */
    public Received read() throws IOException {
        while (true) {
            byte[] p = readPacket(NONE);
            if (V2Cipher.ignored(p)) {
                continue;
            }
            int contents = p.length - V2Cipher.remainderLength(0);
            MessageTypes.Decoded d = MessageTypes.decode(p, V2Cipher.HEADER_LENGTH, contents);
            if (d.command() != null) {
                return new Received(d.command(), d.payload());
            }
        }
    }

    /** Writes one message as a packet (not flushed). */
    public void write(String command, byte[] payload) throws IOException {
        out.write(cipher.encrypt(MessageTypes.type(command), payload, NONE, false));
    }

    /** Bytes on the wire of a message with this command and payload length. */
    public static int wireLength(String command, int payloadLength) {
        return V2Cipher.EXPANSION + MessageTypes.typeLength(command) + payloadLength;
    }

    /**
     * The next packet after its length field, decrypted where it was read: header and contents,
     * then the 16 bytes that held the tag.
     */
    private byte[] readPacket(byte[] aad) throws IOException {
        byte[] len = new byte[V2Cipher.LENGTH_FIELD_LENGTH];
        in.readFully(len, 0, len.length);
        int contents = cipher.decryptLength(len);
        if (contents > MAX_CONTENTS) {
            throw new V2Exception(
                    "v2_oversized",
                    "packet of " + contents + " bytes exceeds " + MAX_CONTENTS + " (read before its bytes)");
        }
        int total = V2Cipher.remainderLength(contents);
        byte[] buf = new byte[Math.min(total, CHUNK)];
        long held = buf.length;
        buffered.accept(held);
        try {
            int off = 0;
            while (off < total) {
                if (off == buf.length) {
                    int grown = (int) Math.min(total, (long) buf.length * 2);
                    buffered.accept(grown - buf.length);
                    held = grown;
                    buf = Arrays.copyOf(buf, grown);
                }
                int want = Math.min(buf.length - off, CHUNK);
                in.readFully(buf, off, want);
                off += want;
            }
            if (!cipher.decryptInPlace(buf, total, aad)) {
                throw new V2Exception("v2_decrypt_failed", "a packet did not authenticate (ChaCha20-Poly1305 tag)");
            }
            return buf;
        } finally {
            buffered.accept(-held);
        }
    }
}
