package org.blockfilter.privacylab.internal.filters;

/**
 * A quotient filter (Bender et al., "Don't thrash: how to cache your hash on flash", VLDB 2012): a 64-bit key is
 * hashed, the hash's top q bits (the quotient) name a home slot of 2^q, the next r bits (the remainder) are stored,
 * and each slot carries the paper's three metadata bits (is_occupied, is_continuation, is_shifted). Remainders of
 * one quotient form a sorted run; runs that collide are shifted right by linear probing (wrapping at the end) into
 * clusters. Lookups never miss an inserted key; a non-member matches only when its (quotient, remainder) equals a
 * stored one, so for s distinct stored fingerprints the rate is exactly s / 2^(q+r), and over random keys at load
 * alpha = n / 2^q it is 1 - e^(-alpha / 2^r), about alpha 2^-r.
 *
 * <p>Space: remainders packed r bits per slot in one {@code long[]}, the metadata as three bit vectors: 2^q (r + 3)
 * bits, exactly, when q >= 6.
 *
 * <p>Written here, not taken from a library: FastFilter 1.0.2 has no quotient filter and no artifact on Maven
 * Central offers a maintained Java one (the Java quotient filters found were unreleased repositories). Insert and
 * lookup only (no deletion, merge or resizing); duplicates of a fingerprint are stored once. Mutable and not
 * thread-safe; no nulls.
 */
public final class QuotientFilter {
    private final int q;
    private final int r;
    private final long seed;
    private final int slots;
    private final int mask;
    private final long[] remainders;
    private final long[] occupied;
    private final long[] continuation;
    private final long[] shifted;
    private int stored;

    private QuotientFilter(int q, int r, long seed) {
        this.q = q;
        this.r = r;
        this.seed = seed;
        this.slots = 1 << q;
        this.mask = slots - 1;
        this.remainders = new long[(int) (((long) slots * r + 63) >>> 6)];
        int words = (slots + 63) >>> 6;
        this.occupied = new long[words];
        this.continuation = new long[words];
        this.shifted = new long[words];
    }

    /**
     * An empty filter of 2^q slots storing r-bit remainders, hashing keys with {@code seed}.
     *
     * @throws IllegalArgumentException unless 1 <= q <= 30, 1 <= r <= 63 and q + r <= 64
     */
    public static QuotientFilter create(int q, int r, long seed) {
        if (q < 1 || q > 30) {
            throw new IllegalArgumentException("quotient bits q must be in [1, 30], got " + q);
        }
        if (r < 1 || r > 63 || q + r > 64) {
            throw new IllegalArgumentException(
                    "remainder bits r must be in [1, 63] with q + r <= 64, got q=" + q + " r=" + r);
        }
        return new QuotientFilter(q, r, seed);
    }

    /**
     * The smallest filter for {@code n} keys at load at most {@code maxLoad} whose expected rate 1 - e^(-alpha/2^r) is
     * at most {@code eps}: q = ceil(log2(n / maxLoad)), then the smallest such r.
     */
    public static QuotientFilter forRate(int n, double eps, double maxLoad, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be positive, got " + n);
        }
        if (!(eps > 0 && eps < 1)) {
            throw new IllegalArgumentException("target rate must be in (0, 1), got " + eps);
        }
        if (!(maxLoad > 0 && maxLoad < 1)) {
            throw new IllegalArgumentException("maximum load must be in (0, 1), got " + maxLoad);
        }
        int q = 1;
        while ((double) n / (1L << q) > maxLoad) {
            q++;
        }
        double load = (double) n / (1L << q);
        int r = 1;
        while (expectedRate(load, r) > eps) {
            r++;
        }
        return create(q, r, seed);
    }

    /** Bender et al.'s rate for random keys at load {@code alpha} with r-bit remainders: 1 - e^(-alpha/2^r). */
    public static double expectedRate(double alpha, int r) {
        return -Math.expm1(-alpha * Math.pow(2, -r));
    }

    public int quotientBits() {
        return q;
    }

    public int remainderBits() {
        return r;
    }

    /** Keys inserted so far whose fingerprint was new. */
    public int stored() {
        return stored;
    }

    /** Occupied fraction of the slots. */
    public double load() {
        return (double) stored / slots;
    }

    /** Allocated bits: the packed remainders and the three metadata bit vectors. */
    public long bitCount() {
        return 64L * (remainders.length + occupied.length + continuation.length + shifted.length);
    }

    /** The exact rate for a uniformly random fingerprint: stored / 2^(q+r). */
    public double exactRate() {
        return stored * Math.pow(2, -(q + r));
    }

    /**
     * Adds {@code key}.
     *
     * @throws IllegalStateException when every slot is full
     */
    public void add(long key) {
        long h = hash(key);
        int fq = (int) (h >>> (64 - q));
        long fr = remainderOf(h);
        if (isEmpty(fq)) {
            setRemainder(fq, fr);
            set(occupied, fq);
            stored++;
            return;
        }
        if (stored == slots) {
            throw new IllegalStateException("quotient filter full: " + slots + " slots");
        }
        boolean runExists = get(occupied, fq);
        set(occupied, fq);
        int start = runStart(fq);
        int s = start;
        boolean newContinuation = false;
        if (runExists) {
            do {
                long cur = remainder(s);
                if (cur == fr) {
                    return; // already stored
                }
                if (Long.compareUnsigned(cur, fr) > 0) {
                    break;
                }
                s = (s + 1) & mask;
            } while (get(continuation, s));
            if (s == start) {
                set(continuation, start); // the old run head moves right and becomes a continuation
            } else {
                newContinuation = true;
            }
        }
        shiftRightFrom(s);
        setRemainder(s, fr);
        assign(continuation, s, newContinuation);
        assign(shifted, s, s != fq);
        stored++;
    }

    /** Whether {@code key} may have been added: true for every added key. */
    public boolean mayContain(long key) {
        long h = hash(key);
        int fq = (int) (h >>> (64 - q));
        if (!get(occupied, fq)) {
            return false;
        }
        long fr = remainderOf(h);
        int s = runStart(fq);
        do {
            long cur = remainder(s);
            if (cur == fr) {
                return true;
            }
            if (Long.compareUnsigned(cur, fr) > 0) {
                return false;
            }
            s = (s + 1) & mask;
        } while (get(continuation, s));
        return false;
    }

    /** The slot where quotient {@code fq}'s run starts (or, during an insert, will start); fq must be occupied. */
    int runStart(int fq) {
        return slots < 128 ? runStartBySlots(fq) : runStartByWords(fq);
    }

    /** The paper's walk, one slot at a time: back to the cluster's start, then runs and occupied quotients in step. */
    int runStartBySlots(int fq) {
        int b = fq;
        while (get(shifted, b)) {
            b = (b - 1) & mask;
        }
        int s = b;
        while (b != fq) {
            do {
                s = (s + 1) & mask;
            } while (get(continuation, s));
            do {
                b = (b + 1) & mask;
            } while (!get(occupied, b));
        }
        return s;
    }

    /**
     * The same walk 64 slots at a time (slots >= 128): the cluster starts at the last unshifted slot at or before fq;
     * if d quotients in [start, fq] are occupied, fq's run is the d-th run of the cluster, and runs start exactly at
     * the slots whose continuation bit is clear (an empty slot ends the cluster and also has it clear).
     */
    int runStartByWords(int fq) {
        int words = shifted.length;
        int w = fq >>> 6;
        long clear = ~shifted[w] & (-1L >>> (63 - (fq & 63)));
        while (clear == 0) {
            w = w == 0 ? words - 1 : w - 1;
            clear = ~shifted[w];
        }
        int b = (w << 6) + 63 - Long.numberOfLeadingZeros(clear);
        // d = occupied quotients in the circular range [b, fq]
        int d = 0;
        int wb = b >>> 6;
        int wf = fq >>> 6;
        long fromB = -1L << (b & 63);
        long toF = -1L >>> (63 - (fq & 63));
        if (wb == wf && b <= fq) {
            d = Long.bitCount(occupied[wb] & fromB & toF);
        } else {
            d = Long.bitCount(occupied[wb] & fromB);
            for (int i = (wb + 1) % words; i != wf; i = (i + 1) % words) {
                d += Long.bitCount(occupied[i]);
            }
            d += Long.bitCount(occupied[wf] & toF);
        }
        // the d-th slot at or after b (circularly) whose continuation bit is clear
        int i = wb;
        long zeros = ~continuation[i] & fromB;
        while (true) {
            int c = Long.bitCount(zeros);
            if (c >= d) {
                for (int k = 1; k < d; k++) {
                    zeros &= zeros - 1;
                }
                return (i << 6) + Long.numberOfTrailingZeros(zeros);
            }
            d -= c;
            i = (i + 1) % words;
            zeros = ~continuation[i];
        }
    }

    /** Moves the entries from {@code from} up to the next empty slot one slot right; occupied bits stay put. */
    private void shiftRightFrom(int from) {
        int end = from;
        while (!isEmpty(end)) {
            end = (end + 1) & mask;
        }
        while (end != from) {
            int prev = (end - 1) & mask;
            setRemainder(end, remainder(prev));
            assign(continuation, end, get(continuation, prev));
            set(shifted, end);
            end = prev;
        }
    }

    /** Whether some stored fingerprint has quotient {@code fq}. */
    boolean isOccupied(int fq) {
        return get(occupied, fq);
    }

    private boolean isEmpty(int slot) {
        return !get(occupied, slot) && !get(continuation, slot) && !get(shifted, slot);
    }

    private long hash(long key) {
        return mix(key + seed);
    }

    private long remainderOf(long h) {
        return (h >>> (64 - q - r)) & ((1L << r) - 1);
    }

    private long remainder(int slot) {
        long bit = (long) slot * r;
        int word = (int) (bit >>> 6);
        int off = (int) (bit & 63);
        long v = remainders[word] >>> off;
        if (off + r > 64) {
            v |= remainders[word + 1] << (64 - off);
        }
        return v & ((1L << r) - 1);
    }

    private void setRemainder(int slot, long value) {
        long bit = (long) slot * r;
        int word = (int) (bit >>> 6);
        int off = (int) (bit & 63);
        long m = (1L << r) - 1;
        remainders[word] = (remainders[word] & ~(m << off)) | (value << off);
        if (off + r > 64) {
            int hiBits = off + r - 64;
            long hiMask = (1L << hiBits) - 1;
            remainders[word + 1] = (remainders[word + 1] & ~hiMask) | (value >>> (64 - off));
        }
    }

    private static boolean get(long[] bits, int i) {
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    private static void set(long[] bits, int i) {
        bits[i >>> 6] |= 1L << i;
    }

    private static void assign(long[] bits, int i, boolean v) {
        if (v) {
            bits[i >>> 6] |= 1L << i;
        } else {
            bits[i >>> 6] &= ~(1L << i);
        }
    }

    /** MurmurHash3's 64-bit finaliser: a bijection, so distinct keys never share a full hash. */
    static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
