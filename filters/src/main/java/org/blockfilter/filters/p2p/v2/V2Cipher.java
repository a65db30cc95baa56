package org.blockfilter.filters.p2p.v2;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * BIP 324's packet cipher for one connection: the keys derived from the ECDH secret with
 * HKDF-SHA256 (BouncyCastle's {@link HKDFBytesGenerator}, salt {@code "bitcoin_v2_shared_secret"}
 * plus the network magic), the garbage terminators and session id, and the packet encryption:
 * a 3-byte length under {@link FSChaCha20}, then header byte (bit 7 = ignore) and contents under
 * {@link FSChaCha20Poly1305}. Mutable (the ciphers advance with every packet), not thread-safe:
 * one reader and one writer may use the two directions from different threads, since they share
 * no state after construction.
 */
public final class V2Cipher {
    /** Bytes of the encrypted length field. */
    public static final int LENGTH_FIELD_LENGTH = 3;
    /** Bytes of the header (the ignore bit) inside the AEAD plaintext. */
    public static final int HEADER_LENGTH = 1;
    /** Bytes a packet adds to its contents: length, header and tag. */
    public static final int EXPANSION = LENGTH_FIELD_LENGTH + HEADER_LENGTH + FSChaCha20Poly1305.TAG_LENGTH;
    /** Bytes of a garbage terminator. */
    public static final int TERMINATOR_LENGTH = 16;

    private static final int IGNORE_BIT = 0x80;
    private static final byte[] NONE = new byte[0];

    private final FSChaCha20 sendLength;
    private final FSChaCha20Poly1305 sendPacket;
    private final FSChaCha20 recvLength;
    private final FSChaCha20Poly1305 recvPacket;
    private final byte[] sendTerminator;
    private final byte[] recvTerminator;
    private final byte[] sessionId;
    /** The derived keys in the BIP's order, kept for the official vectors' intermediate values. */
    private final byte[][] derived;

    /** A decrypted packet: its contents and whether the sender marked it to be ignored (a decoy). */
    public record Packet(boolean ignore, byte[] contents) {}

    /**
     * @param sharedSecret {@link EllSwift#sharedSecret}
     * @param magic        the network's 4 magic bytes, as on the wire
     * @param initiating   whether we opened the connection
     */
    public V2Cipher(byte[] sharedSecret, byte[] magic, boolean initiating) {
        byte[] salt = concat("bitcoin_v2_shared_secret".getBytes(StandardCharsets.US_ASCII), magic);
        String[] names = {
            "initiator_L", "initiator_P", "responder_L", "responder_P", "garbage_terminators", "session_id"
        };
        derived = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
            hkdf.init(new HKDFParameters(sharedSecret, salt, names[i].getBytes(StandardCharsets.US_ASCII)));
            derived[i] = new byte[32];
            hkdf.generateBytes(derived[i], 0, 32);
        }
        byte[] initiatorTerminator = Arrays.copyOfRange(derived[4], 0, 16);
        byte[] responderTerminator = Arrays.copyOfRange(derived[4], 16, 32);
        sendLength = new FSChaCha20(derived[initiating ? 0 : 2]);
        sendPacket = new FSChaCha20Poly1305(derived[initiating ? 1 : 3]);
        recvLength = new FSChaCha20(derived[initiating ? 2 : 0]);
        recvPacket = new FSChaCha20Poly1305(derived[initiating ? 3 : 1]);
        sendTerminator = initiating ? initiatorTerminator : responderTerminator;
        recvTerminator = initiating ? responderTerminator : initiatorTerminator;
        sessionId = derived[5].clone();
    }

    /** The garbage terminator we send after our garbage. */
    public byte[] sendTerminator() {
        return sendTerminator.clone();
    }

    /** The garbage terminator that ends the peer's garbage. */
    public byte[] recvTerminator() {
        return recvTerminator.clone();
    }

    /** The session id (both ends compute the same one). */
    public byte[] sessionId() {
        return sessionId.clone();
    }

    /** Key {@code i} in the order initiator_L, initiator_P, responder_L, responder_P. */
    byte[] derivedKey(int i) {
        return derived[i].clone();
    }

    /** One packet on the wire: encrypted length, then the AEAD of header and contents. */
    public byte[] encrypt(byte[] contents, byte[] aad, boolean ignore) {
        return encrypt(NONE, contents, aad, ignore);
    }

    /**
     * One packet whose contents are {@code type} then {@code payload}, encrypted from where they
     * are: the packet is the only array written ({@link V2Transport#write}'s path).
     */
    public byte[] encrypt(byte[] type, byte[] payload, byte[] aad, boolean ignore) {
        long n = (long) type.length + payload.length;
        if (n >= 1 << 24) {
            throw new IllegalArgumentException("packet contents of " + n + " bytes exceed 2^24 - 1");
        }
        byte[] head = new byte[HEADER_LENGTH + type.length];
        head[0] = (byte) (ignore ? IGNORE_BIT : 0);
        System.arraycopy(type, 0, head, HEADER_LENGTH, type.length);
        byte[] packet = new byte[LENGTH_FIELD_LENGTH + remainderLength((int) n)];
        sendPacket.encrypt(aad, head, payload, packet, LENGTH_FIELD_LENGTH);
        byte[] length = sendLength.crypt(new byte[] {(byte) n, (byte) (n >>> 8), (byte) (n >>> 16)});
        System.arraycopy(length, 0, packet, 0, LENGTH_FIELD_LENGTH);
        return packet;
    }

    /** The contents length a packet's first 3 bytes announce (decrypting advances the length cipher). */
    public int decryptLength(byte[] encrypted) {
        byte[] b = recvLength.crypt(encrypted);
        return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16;
    }

    /** Bytes after the length field for contents of {@code length} bytes. */
    public static int remainderLength(int contentsLength) {
        return HEADER_LENGTH + contentsLength + FSChaCha20Poly1305.TAG_LENGTH;
    }

    /** The packet after its length field, or null when it does not authenticate. */
    public Packet decrypt(byte[] rest, int len, byte[] aad) {
        byte[] plain = new byte[Math.max(0, len - FSChaCha20Poly1305.TAG_LENGTH)];
        if (!recvPacket.decrypt(aad, rest, 0, len, plain, 0) || plain.length < HEADER_LENGTH) {
            return null;
        }
        return new Packet(ignored(plain), Arrays.copyOfRange(plain, HEADER_LENGTH, plain.length));
    }

    /**
     * Decrypts the packet after its length field where it is: header and contents are then {@code
     * rest[0, len - 16)} ({@link V2Transport#read}'s path, without {@link #decrypt}'s copy). False
     * when it does not authenticate.
     */
    public boolean decryptInPlace(byte[] rest, int len, byte[] aad) {
        return recvPacket.decrypt(aad, rest, 0, len, rest, 0) && len >= HEADER_LENGTH + FSChaCha20Poly1305.TAG_LENGTH;
    }

    /** Whether a decrypted packet starting at {@code plain[0]} is marked to be ignored (a decoy). */
    public static boolean ignored(byte[] plain) {
        return (plain[0] & IGNORE_BIT) != 0;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
