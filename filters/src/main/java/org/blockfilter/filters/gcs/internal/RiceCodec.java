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

    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private RiceCodec() {}

    /** Number of bits the Rice code of {@code delta} takes. */
    public static long bits(long delta, int p) {
        return (delta >>> p) + 1 + p;
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

    /**
     * Reads Rice codes through a 64-bit bit buffer: {@code cur} holds the next {@code avail} unread bits
     * left-aligned (the bits after them are the stream's following bits or zero), refilled branch-free
     * from one big-endian word only when a code does not fit, so that most elements cost a few register
     * operations and no dependent memory load.
     */
    public static final class Reader {
        private final byte[] buf;
        private final int p;
        private long cur;
        private int avail;
        private int next;

        public Reader(byte[] buf, long startBit, int p) {
            this.buf = buf;
            this.p = p;
            this.next = (int) (startBit >>> 3);
            this.avail = 0;
            this.cur = 0;
            refill();
            int skip = (int) startBit & 7;
            cur <<= skip;
            avail -= skip;
        }

        /** Tops the buffer up to 56..63 bits (Giesen's branch-free refill). */
        private void refill() {
            cur |= ((long) BE_LONG.get(buf, next)) >>> avail;
            next += (63 - avail) >>> 3;
            avail |= 56;
        }

        /** Bit position of the next unread bit. */
        public long position() {
            return 8L * next - avail;
        }

        /** Next delta. The stream must hold another valid code: no bounds checks here. */
        public long next() {
            // Refill only when the code does not fit what is buffered: about every other element at P=19,
            // which keeps the dependent load off most elements' critical path.
            int ones = Long.numberOfLeadingZeros(~cur);
            int used = ones + 1 + p;
            if (used > avail) {
                refill();
                ones = Long.numberOfLeadingZeros(~cur);
                used = ones + 1 + p;
            }
            if (used <= avail) {
                long r = (cur << (ones + 1)) >>> (64 - p);
                cur <<= used;
                avail -= used;
                return ((long) ones << p) | r;
            }
            return nextLong(Long.MAX_VALUE, Long.MAX_VALUE, 0, 0);
        }

        /**
         * Reads and checks {@code n} codes from a stream nothing is known about, and returns the bit
         * position after the last one. Checks: no code reads past {@code endBit}; every value (running sum
         * of deltas) stays below {@code f}, the set's range N*M, which also bounds any unary run. Reads only
         * below {@code endBit / 8 + PAD}, so it terminates in time linear in the input.
         *
         * <p>The cursor lives in locals for the loop: as fields, every element would store and reload
         * {@code cur} and {@code avail}, putting store-to-load forwarding on the dependency chain that
         * limits the loop. The bounds check runs once per refill, not per element: a refill that starts
         * at or before {@code endBit / 8} stays inside the padded buffer, and the final position check
         * catches a last code that ends past {@code endBit}.
         *
         * @throws FilterFormatException naming the element index and the byte offset
         */
        public long validate(int n, long endBit, long f) {
            final byte[] b = buf;
            final int pp = p;
            final int lastRefill = (int) (endBit >>> 3);
            long c = cur;
            int a = avail;
            int nx = next;
            // f minus the running value: one subtraction and a sign test per element check value < f. It
            // cannot wrap: it starts at f < 2^63 (N < 2^31, M < 2^32) and a delta is below rem + 2^P.
            long rem = f;
            for (int i = 0; i < n; i++) {
                int ones = Long.numberOfLeadingZeros(~c);
                int used = ones + 1 + pp;
                if (used > a) {
                    if (nx > lastRefill) {
                        throw truncated(i, endBit);
                    }
                    c |= ((long) BE_LONG.get(b, nx)) >>> a; // the same refill as refill(), on locals
                    nx += (63 - a) >>> 3;
                    a |= 56;
                    ones = Long.numberOfLeadingZeros(~c);
                    used = ones + 1 + pp;
                }
                long delta;
                if (used <= a) {
                    delta = ((long) ones << pp) | ((c << (ones + 1)) >>> (64 - pp));
                    c <<= used;
                    a -= used;
                } else { // a unary run longer than the buffer: rare, so the field-based slow path is fine
                    cur = c;
                    avail = a;
                    next = nx;
                    delta = nextLong(endBit, (rem - 1) >>> pp, i, 1);
                    c = cur;
                    a = avail;
                    nx = next;
                }
                rem -= delta;
                if (rem <= 0) {
                    cur = c;
                    avail = a;
                    next = nx;
                    throw outOfRange(delta, f - rem - delta, f, i);
                }
            }
            cur = c;
            avail = a;
            next = nx;
            long end = position();
            if (end > endBit) {
                throw truncated(n - 1, endBit);
            }
            return end;
        }

        private FilterFormatException outOfRange(long delta, long value, long f, long index) {
            if (Long.compareUnsigned(delta >>> p, (f - 1 - value) >>> p) > 0) {
                return quotientTooLong(delta >>> p, index);
            }
            return new FilterFormatException(
                    "element " + index,
                    Long.toUnsignedString(value + delta),
                    (position() - 1) >>> 3,
                    "value is not below N*M = " + Long.toUnsignedString(f));
        }

        /** A code whose quotient run reaches past the buffer; checks bounds if {@code checked != 0}. */
        private long nextLong(long endBit, long maxQuotient, long index, int checked) {
            long q = 0;
            while (true) {
                int ones = Long.numberOfLeadingZeros(~cur);
                if (ones < avail) {
                    q += ones;
                    cur <<= ones + 1;
                    avail -= ones + 1;
                    break;
                }
                q += avail;
                cur = 0;
                avail = 0;
                if (checked != 0) {
                    if (position() > endBit) {
                        throw truncated(index, endBit);
                    }
                    if (Long.compareUnsigned(q, maxQuotient) > 0) {
                        throw quotientTooLong(q, index);
                    }
                }
                refill();
            }
            if (checked != 0 && Long.compareUnsigned(q, maxQuotient) > 0) {
                throw quotientTooLong(q, index);
            }
            if (checked != 0 && position() > endBit) {
                throw truncated(index, endBit);
            }
            refill();
            long r = cur >>> (64 - p);
            cur <<= p;
            avail -= p;
            return (q << p) | r;
        }

        private FilterFormatException truncated(long index, long endBit) {
            return new FilterFormatException(
                    "element " + index, "truncated", endBit >>> 3, "bit stream ends inside element " + index);
        }

        private FilterFormatException quotientTooLong(long q, long index) {
            return new FilterFormatException(
                    "quotient",
                    "at least " + Long.toUnsignedString(q),
                    position() >>> 3,
                    "unary run of element " + index + " exceeds the range N*M");
        }
    }
}
