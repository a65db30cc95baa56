package org.blockfilter.filters.wire;

/**
 * Bitcoin's CompactSize unsigned integer: one byte below 0xfd, else a marker (0xfd, 0xfe, 0xff)
 * and 2, 4 or 8 little-endian bytes. Read strictly, as Bitcoin Core's {@code ReadCompactSize}
 * does: a truncated encoding, a longer encoding than the value needs (non-canonical) and a value
 * above the caller's bound are {@link WireFormatException}s. Values are unsigned 64-bit. Stateless.
 */
public final class CompactSize {

    /** Largest value a 1-byte encoding carries. */
    public static final int MAX_ONE_BYTE = 0xfc;

    private CompactSize() {}

    /**
     * Reads a canonical CompactSize at {@code buf[off]} without reading at or past {@code end}; its
     * encoded length is {@link #size(long)} of the result.
     *
     * @param max largest value accepted, compared unsigned ({@code -1} accepts every value)
     * @throws WireFormatException naming {@code field} if truncated, non-canonical or above {@code max}
     */
    public static long read(byte[] buf, int off, int end, String field, long max) {
        if (off >= end) {
            throw new WireFormatException(field, null, off, "CompactSize missing: no bytes left");
        }
        int marker = buf[off] & 0xff;
        long value;
        if (marker <= MAX_ONE_BYTE) {
            value = marker;
        } else {
            int width = marker == 0xfd ? 2 : marker == 0xfe ? 4 : 8;
            if (end - off - 1 < width) {
                throw new WireFormatException(
                        field,
                        String.format("0x%02x + %d bytes", marker, end - off - 1),
                        off,
                        "CompactSize truncated, needs " + width + " bytes after the marker");
            }
            value = 0;
            for (int i = width; i >= 1; i--) {
                value = (value << 8) | (buf[off + i] & 0xffL);
            }
            long min = marker == 0xfd ? 0xfdL : marker == 0xfe ? 0x1_0000L : 0x1_0000_0000L;
            if (Long.compareUnsigned(value, min) < 0) {
                throw new WireFormatException(
                        field,
                        Long.toUnsignedString(value),
                        off,
                        "non-canonical CompactSize (" + (width + 1) + " bytes for a value below " + min + ")");
            }
        }
        if (Long.compareUnsigned(value, max) > 0) {
            throw new WireFormatException(
                    field,
                    Long.toUnsignedString(value),
                    off,
                    "CompactSize " + Long.toUnsignedString(value) + " exceeds " + Long.toUnsignedString(max));
        }
        return value;
    }

    /** Encoded length of {@code value} (unsigned) in bytes: 1, 3, 5 or 9. */
    public static int size(long value) {
        if (Long.compareUnsigned(value, MAX_ONE_BYTE) <= 0) {
            return 1;
        } else if (Long.compareUnsigned(value, 0xffffL) <= 0) {
            return 3;
        } else if (Long.compareUnsigned(value, 0xffff_ffffL) <= 0) {
            return 5;
        }
        return 9;
    }

    /** Writes the canonical encoding of {@code value} (unsigned) at {@code buf[off]}; returns the bytes written. */
    public static int write(long value, byte[] buf, int off) {
        int size = size(value);
        if (size == 1) {
            buf[off] = (byte) value;
            return 1;
        }
        buf[off] = (byte) (size == 3 ? 0xfd : size == 5 ? 0xfe : 0xff);
        for (int i = 1; i < size; i++) {
            buf[off + i] = (byte) (value >>> (8 * (i - 1)));
        }
        return size;
    }

    /** The canonical encoding of {@code value} (unsigned). */
    public static byte[] encode(long value) {
        byte[] out = new byte[size(value)];
        write(value, out, 0);
        return out;
    }
}
