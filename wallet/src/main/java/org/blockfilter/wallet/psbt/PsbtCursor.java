package org.blockfilter.wallet.psbt;

/**
 * A read position in a PSBT's bytes, for error messages that name the offset. Compact sizes must
 * be minimally encoded (BIP 174 for key types; Core refuses any other for lengths). Not thread-safe.
 */
final class PsbtCursor {
    private final byte[] bytes;
    private final int base;
    private int pos;
    /** Where the global unsigned transaction's value starts, for offsets inside it. */
    int globalTxOffset;

    PsbtCursor(byte[] bytes) {
        this(bytes, 0);
    }

    /** A cursor over a value that sits at {@code base} in the whole PSBT. */
    PsbtCursor(byte[] bytes, int base) {
        this.bytes = bytes;
        this.base = base;
    }

    int position() {
        return base + pos;
    }

    int remaining() {
        return bytes.length - pos;
    }

    int u8(String what) {
        need(1, what);
        return bytes[pos++] & 0xff;
    }

    long u32(String what) {
        need(4, what);
        long v = (bytes[pos] & 0xffL)
                | (bytes[pos + 1] & 0xffL) << 8
                | (bytes[pos + 2] & 0xffL) << 16
                | (bytes[pos + 3] & 0xffL) << 24;
        pos += 4;
        return v;
    }

    long u64(String what) {
        need(8, what);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (bytes[pos + i] & 0xffL);
        }
        pos += 8;
        return v;
    }

    byte[] bytes(int n, String what) {
        need(n, what);
        byte[] out = java.util.Arrays.copyOfRange(bytes, pos, pos + n);
        pos += n;
        return out;
    }

    /** A length read from the input, checked against what is left (never allocates more than that). */
    int checkLength(long n, String what) {
        if (n > remaining()) {
            throw new PsbtFormatException(what + " says " + n + " bytes but " + remaining() + " remain", position());
        }
        return (int) n;
    }

    long compactSize(String what) {
        int start = position();
        int first = u8(what);
        long v;
        long min;
        if (first < 0xfd) {
            return first;
        } else if (first == 0xfd) {
            need(2, what);
            v = (bytes[pos] & 0xffL) | (bytes[pos + 1] & 0xffL) << 8;
            pos += 2;
            min = 0xfd;
        } else if (first == 0xfe) {
            v = u32(what);
            min = 0x10000;
        } else {
            v = u64(what);
            min = 0x100000000L;
        }
        if (v < min || v < 0) {
            throw new PsbtFormatException(
                    what + ": compact size " + Long.toUnsignedString(v) + " is not minimally encoded", start);
        }
        return v;
    }

    private void need(int n, String what) {
        if (n > remaining()) {
            throw new PsbtFormatException(what + ": needs " + n + " byte(s), " + remaining() + " remain", position());
        }
    }
}
