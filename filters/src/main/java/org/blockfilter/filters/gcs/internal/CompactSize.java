package org.blockfilter.filters.gcs.internal;

import org.blockfilter.filters.gcs.FilterFormatException;

/**
 * Bitcoin's CompactSize unsigned integer (1, 3, 5 or 9 bytes, little-endian after the marker), read
 * strictly: truncated and non-canonical (longer than needed) encodings are rejected, as Bitcoin Core's
 * {@code ReadCompactSize} does.
 */
public final class CompactSize {

    private CompactSize() {}

    /**
     * Reads a canonical CompactSize at {@code buf[off]}, not reading at or past {@code end}. The result is
     * an unsigned 64-bit value; its encoded length is {@link #size(long)}.
     *
     * @throws FilterFormatException naming {@code field} if truncated or not minimally encoded
     */
    public static long read(byte[] buf, int off, int end, String field) {
        if (off >= end) {
            throw new FilterFormatException(field, "missing", off, "CompactSize truncated");
        }
        int marker = buf[off] & 0xff;
        if (marker < 0xfd) {
            return marker;
        }
        int width = marker == 0xfd ? 2 : marker == 0xfe ? 4 : 8;
        if (end - off - 1 < width) {
            throw new FilterFormatException(
                    field,
                    String.format("0x%02x + %d bytes", marker, end - off - 1),
                    off,
                    "CompactSize truncated, needs " + width + " bytes after the marker");
        }
        long value = 0;
        for (int i = width; i >= 1; i--) {
            value = (value << 8) | (buf[off + i] & 0xffL);
        }
        long min = marker == 0xfd ? 0xfdL : marker == 0xfe ? 0x1_0000L : 0x1_0000_0000L;
        if (Long.compareUnsigned(value, min) < 0) {
            throw new FilterFormatException(
                    field,
                    Long.toUnsignedString(value),
                    off,
                    "non-canonical CompactSize (" + (width + 1) + " bytes for a value below " + min + ")");
        }
        return value;
    }

    /** Encoded length of {@code value} (unsigned) in bytes. */
    public static int size(long value) {
        if (Long.compareUnsigned(value, 0xfdL) < 0) {
            return 1;
        } else if (Long.compareUnsigned(value, 0xffffL) <= 0) {
            return 3;
        } else if (Long.compareUnsigned(value, 0xffff_ffffL) <= 0) {
            return 5;
        }
        return 9;
    }

    /** Writes the canonical encoding of {@code value} at {@code buf[off]}; returns the bytes written. */
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
}
