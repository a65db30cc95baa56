package org.blockfilter.filters.chain;

/** Reads and writes the little-endian u32 fields of an 80-byte block header. Static helpers only. */
final class HeaderFields {
    private HeaderFields() {}

    /** {@code nTime}, seconds since the epoch. */
    static long time(byte[] header) {
        return le32(header, 68);
    }

    /** {@code nBits}, the compact target. */
    static long bits(byte[] header) {
        return le32(header, 72);
    }

    static long le32(byte[] b, int off) {
        return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16 | (b[off + 3] & 0xffL) << 24;
    }

    static void putLe32(byte[] b, int off, long v) {
        for (int i = 0; i < 4; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
