package org.blockfilter.filters.gcs.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.blockfilter.filters.gcs.FilterFormatException;

/**
 * Golomb-Rice coding of sorted deltas, MSB first: quotient {@code delta >>> P} in unary (that many 1 bits,
 * then a 0), then the low P bits of the delta.
 *
 * <p>Works on whole 64-bit big-endian words rather than bit by bit: the unary part is one
 * {@link Long#numberOfLeadingZeros} of the inverted word per 64 bits. For that the buffer must carry at least
 * {@link #PAD} zero bytes after the last encoded byte, so that a word read near the end stays in bounds.
 * A reader or writer is a small mutable cursor used by one thread for one pass.
 */
public final class RiceCodec {

    /** Zero bytes a buffer needs after its encoded data. */
    public static final int PAD = 16;

    private static final VarHandle BE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private RiceCodec() {
    }

    /** Number of bits the Rice code of {@code delta} takes. */
    public static long bits(long delta, int p) {
        return (delta >>> p) + 1 + p;
    }

    /** The 64 bits starting at bit {@code pos} of {@code buf}, MSB first. */
    static long window(byte[] buf, long pos) {
        int at = (int) (pos >>> 3);
        int shift = (int) pos & 7;
        long w = (long) BE_LONG.get(buf, at);
        return (w << shift) | ((buf[at + 8] & 0xffL) >>> (8 - shift));
    }

    /** Appends Rice codes into a zeroed buffer. */
    public static final class Writer {
        private final byte[] buf;
        private final int p;
        private final long mask;
        private long pos;

        public Writer(byte[] buf, long startBit, int p) {
            this.buf = buf;
            this.p = p;
            this.mask = (1L << p) - 1;
            this.pos = startBit;
        }

        public void write(long delta) {
            long q = delta >>> p;
            // A write spans at most 64 bits including the bit offset in its first byte (<= 7).
            while (q > 24) {
                put(0xff_ffffL, 24);
                q -= 24;
            }
            // q ones, the stop 0, then P remainder bits: at most 24 + 1 + 32 = 57 bits.
            put((((1L << q) - 1) << (p + 1)) | (delta & mask), (int) q + 1 + p);
        }

        private void put(long bits, int nbits) {
            int at = (int) (pos >>> 3);
            int shift = (int) pos & 7;
            long w = (long) BE_LONG.get(buf, at);
            BE_LONG.set(buf, at, w | (bits << (64 - shift - nbits)));
            pos += nbits;
        }

        public long position() {
            return pos;
        }
    }

    /** Reads Rice codes from a stream that has already been validated (see {@link #readChecked}). */
    public static final class Reader {
        private final byte[] buf;
        private final int p;
        private long pos;

        public Reader(byte[] buf, long startBit, int p) {
            this.buf = buf;
            this.p = p;
            this.pos = startBit;
        }

        /** Next delta. The stream must hold another valid code: no bounds checks here. */
        public long next() {
            long q = 0;
            long w = window(buf, pos);
            while (w == -1L) {
                q += 64;
                pos += 64;
                w = window(buf, pos);
            }
            int lz = Long.numberOfLeadingZeros(~w);
            q += lz;
            long r;
            int used = lz + 1;
            if (used + p <= 64) {
                r = (w << used) >>> (64 - p);
                pos += used + p;
            } else {
                pos += used;
                r = window(buf, pos) >>> (64 - p);
                pos += p;
            }
            return (q << p) | r;
        }

        /**
         * Next delta with every check a hostile stream needs: the code must end at or before
         * {@code endBit}, and {@code value + delta} must stay below {@code f} (the set's range N*M), which
         * also bounds how long a unary run may be. {@code value} is the running sum so far, below {@code f}.
         *
         * @throws FilterFormatException naming the element index and the byte offset
         */
        public long readChecked(long endBit, long f, long value, long index) {
            long maxQuotient = (f - 1 - value) >>> p;
            long q = 0;
            long w = window(buf, pos);
            while (w == -1L) {
                q += 64;
                pos += 64;
                if (pos > endBit) {
                    throw truncated(index, endBit);
                }
                if (Long.compareUnsigned(q, maxQuotient) > 0) {
                    throw quotientTooLong(q, index);
                }
                w = window(buf, pos);
            }
            int lz = Long.numberOfLeadingZeros(~w);
            q += lz;
            if (Long.compareUnsigned(q, maxQuotient) > 0) {
                throw quotientTooLong(q, index);
            }
            pos += lz + 1;
            if (pos + p > endBit) {
                throw truncated(index, endBit);
            }
            long r = p == 0 ? 0 : window(buf, pos) >>> (64 - p);
            pos += p;
            long delta = (q << p) | r;
            if (Long.compareUnsigned(delta, f - 1 - value) > 0) {
                throw new FilterFormatException("element " + index, Long.toUnsignedString(value + delta),
                        (pos - 1) >>> 3, "value is not below N*M = " + Long.toUnsignedString(f));
            }
            return delta;
        }

        private FilterFormatException truncated(long index, long endBit) {
            return new FilterFormatException("element " + index, "truncated", endBit >>> 3,
                    "bit stream ends inside element " + index);
        }

        private FilterFormatException quotientTooLong(long q, long index) {
            return new FilterFormatException("quotient", "at least " + Long.toUnsignedString(q), pos >>> 3,
                    "unary run of element " + index + " exceeds the range N*M");
        }

        public long position() {
            return pos;
        }
    }
}
