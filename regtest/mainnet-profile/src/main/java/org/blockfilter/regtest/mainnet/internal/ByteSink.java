package org.blockfilter.regtest.mainnet.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer for Bitcoin's wire format, and the double SHA-256 the
 * format hashes with. Not thread-safe; reused across blocks with {@link #reset()}.
 */
public final class ByteSink {
    private byte[] buf;
    private int size;

    public ByteSink(int capacity) {
        buf = new byte[capacity];
    }

    public int size() {
        return size;
    }

    public byte[] array() {
        return buf;
    }

    public void reset() {
        size = 0;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    public void u8(int v) {
        ensure(1);
        buf[size++] = (byte) v;
    }

    public void u32(long v) {
        ensure(4);
        buf[size++] = (byte) v;
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 24);
    }

    public void u64(long v) {
        u32(v);
        u32(v >>> 32);
    }

    public void varInt(long v) {
        if (v < 0xfd) {
            u8((int) v);
        } else if (v <= 0xffff) {
            u8(0xfd);
            u8((int) v);
            u8((int) (v >>> 8));
        } else {
            u8(0xfe);
            u32(v);
        }
    }

    public void bytes(byte[] b) {
        bytes(b, 0, b.length);
    }

    public void bytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    /** Writes {@code len} pseudo-random bytes (signatures and keys that are never verified). */
    public void noise(Rng rng, int len) {
        ensure(len);
        int i = 0;
        while (i < len) {
            long r = rng.nextLong();
            for (int k = 0; k < 8 && i < len; k++, i++) {
                buf[size + i] = (byte) (r >>> (8 * k));
            }
        }
        size += len;
    }

    /** Overwrites 4 bytes at {@code pos}. */
    public void putU32At(int pos, long v) {
        buf[pos] = (byte) v;
        buf[pos + 1] = (byte) (v >>> 8);
        buf[pos + 2] = (byte) (v >>> 16);
        buf[pos + 3] = (byte) (v >>> 24);
    }

    /** A SHA-256 instance for this thread's use. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the JDK", e);
        }
    }

    /** Double SHA-256 of {@code b[off, off+len)} in wire (little-endian) byte order. */
    public static byte[] sha256d(MessageDigest sha, byte[] b, int off, int len) {
        sha.update(b, off, len);
        byte[] once = sha.digest();
        return sha.digest(once);
    }
}
