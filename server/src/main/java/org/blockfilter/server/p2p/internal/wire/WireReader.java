package org.blockfilter.server.p2p.internal.wire;

import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;

/**
 * Reads Bitcoin wire encodings from a byte array, strictly: non-canonical CompactSize values,
 * counts above a caller's limit, lengths that run past the end, and trailing bytes are errors
 * ({@link MalformedDataException}) that name the field and the offset. Never allocates more
 * than the input can back, so a lying count cannot exhaust memory.
 *
 * <p>Mutable (it has a position) and not thread-safe; one reader per message.
 */
public final class WireReader {
    private final byte[] data;
    private int pos;

    public WireReader(byte[] data) {
        this.data = data;
    }

    public int position() {
        return pos;
    }

    public int remaining() {
        return data.length - pos;
    }

    public MalformedDataException error(String field, String message) {
        return new MalformedDataException(field, pos, message);
    }

    private void need(String field, long n) {
        if (n > remaining()) {
            throw error(field, "needs " + n + " bytes, " + remaining() + " left");
        }
    }

    public int u8(String field) {
        need(field, 1);
        return data[pos++] & 0xff;
    }

    public int u16le(String field) {
        need(field, 2);
        int v = (data[pos] & 0xff) | (data[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    public int u16be(String field) {
        need(field, 2);
        int v = (data[pos] & 0xff) << 8 | (data[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    public long u32le(String field) {
        need(field, 4);
        long v = 0;
        for (int i = 3; i >= 0; i--) {
            v = v << 8 | (data[pos + i] & 0xff);
        }
        pos += 4;
        return v;
    }

    public int i32le(String field) {
        return (int) u32le(field);
    }

    public long i64le(String field) {
        need(field, 8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (data[pos + i] & 0xff);
        }
        pos += 8;
        return v;
    }

    public byte[] bytes(String field, int n) {
        need(field, n);
        byte[] out = Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return out;
    }

    /** A 32-byte hash in wire (internal) byte order, returned in bitcoinj display order. */
    public Sha256Hash hash(String field) {
        return Sha256Hash.wrapReversed(bytes(field, 32));
    }

    /** A canonical (shortest-form) CompactSize that is at most {@code max}. */
    public long compactSize(String field, long max) {
        int start = pos;
        int first = u8(field);
        long v;
        long min;
        if (first < 0xfd) {
            v = first;
            min = 0;
        } else if (first == 0xfd) {
            v = u16le(field);
            min = 0xfd;
        } else if (first == 0xfe) {
            v = u32le(field);
            min = 0x1_0000;
        } else {
            v = i64le(field);
            min = 0x1_0000_0000L;
            if (v < 0) {
                pos = start;
                throw error(field, "CompactSize " + Long.toUnsignedString(v) + " exceeds " + max);
            }
        }
        if (v < min) {
            pos = start;
            throw error(field, "non-canonical CompactSize " + v);
        }
        if (v > max) {
            pos = start;
            throw error(field, "CompactSize " + v + " exceeds " + max);
        }
        return v;
    }

    /**
     * A count of items of at least {@code itemSize} bytes each: at most {@code max}, and no
     * more than the remaining bytes can hold.
     */
    public int count(String field, int max, int itemSize) {
        int start = pos;
        int n = (int) compactSize(field, max);
        if ((long) n * itemSize > remaining()) {
            pos = start;
            throw error(
                    field, "count " + n + " needs " + (long) n * itemSize + " bytes, " + (remaining() - 0) + " left");
        }
        return n;
    }

    /** A CompactSize length (at most {@code max}) followed by that many bytes. */
    public byte[] varBytes(String field, int max) {
        int start = pos;
        int n = (int) compactSize(field + " length", max);
        if (n > remaining()) {
            pos = start;
            throw error(field, "length " + n + " runs past the end (" + (remaining()) + " left)");
        }
        return bytes(field, n);
    }

    /** Throws unless every byte was read. */
    public void end(String what) {
        if (remaining() != 0) {
            throw error(what, remaining() + " trailing bytes");
        }
    }
}
