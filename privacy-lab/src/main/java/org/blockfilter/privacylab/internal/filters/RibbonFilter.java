package org.blockfilter.privacylab.internal.filters;

/**
 * A standard (non-homogeneous) ribbon filter (Dillinger and Walzer, "Ribbon filter: practically smaller than Bloom
 * and Xor", 2021) with band width w = 64. Each key hashes to a start slot s in [0, m - 64], a 64-bit coefficient
 * word c with its lowest bit set (the key's row covers slots s .. s + 63) and an r-bit fingerprint b. Construction
 * solves the banded GF(2) system "XOR of the r-bit solution rows Z[s + j] over the set bits j of c = b" for all keys:
 * rows are added one by one with on-the-fly banded Gaussian elimination (Rapid Incremental Boolean Banding), then
 * back-substituted into Z. A key whose row reduces to 0 = b' with b' != 0 makes the system unsolvable; construction
 * then starts again with the next hash seed, and {@link #attempts()} reports how many seeds it took. A query
 * recomputes the XOR for its own (s, c) and compares it with its b: members always match, and a non-member matches
 * with probability exactly 2^-r.
 *
 * <p>Space: m r bits, stored as r bit vectors of m bits (bit k of every Z row), m rounded up to whole 64-bit words;
 * m = (1 + overhead) n. The seed, m and r (a few words) are not counted.
 *
 * <p>Written here, not taken from a library: FastFilter 1.0.2 has no ribbon filter and no artifact on Maven Central
 * offers a Java one (the ribbon filters found were C++, in RocksDB and the paper's code, or native bindings).
 * Immutable after construction and thread-safe for queries; no nulls.
 */
public final class RibbonFilter {
    /** Band width: coefficient rows are one 64-bit word. */
    public static final int W = 64;

    private final int m;
    private final int r;
    private final long seed;
    private final long seedMix;
    private final int attempts;
    /** Bit k of solution row i is bit (i mod 64) of columns[k][i / 64]. */
    private final long[][] columns;

    private RibbonFilter(int m, int r, long seed, int attempts, long[][] columns) {
        this.m = m;
        this.r = r;
        this.seed = seed;
        this.seedMix = QuotientFilter.mix(seed);
        this.attempts = attempts;
        this.columns = columns;
    }

    /**
     * Builds a filter of r-bit fingerprints for {@code keys} with m = (1 + overhead) n slots rounded up to a multiple of
     * 64, trying seeds {@code seed}, {@code seed + 1}, ... until the system solves.
     *
     * @throws IllegalArgumentException for r outside [1, 64], a negative or non-finite overhead, maxAttempts < 1
     * @throws IllegalStateException    when no seed of {@code maxAttempts} gives a solvable system (overhead too small)
     */
    public static RibbonFilter build(long[] keys, int r, double overhead, long seed, int maxAttempts) {
        if (r < 1 || r > 64) {
            throw new IllegalArgumentException("result bits r must be in [1, 64], got " + r);
        }
        if (!(overhead >= 0) || Double.isInfinite(overhead)) {
            throw new IllegalArgumentException("space overhead must be a finite number >= 0, got " + overhead);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
        }
        int m = slots(keys.length, overhead);
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            long s = seed + attempt - 1;
            long[][] columns = solve(keys, m, r, s);
            if (columns != null) {
                return new RibbonFilter(m, r, s, attempt, columns);
            }
        }
        throw new IllegalStateException("ribbon construction failed with " + maxAttempts + " seeds at m = " + m
                + " slots for n = " + keys.length + " keys (overhead " + overhead + "): the overhead is too small");
    }

    /** m for n keys: ceil((1 + overhead) n), at least 64, rounded up to a multiple of 64. */
    public static int slots(int n, double overhead) {
        long want = (long) Math.ceil((1 + overhead) * n);
        long m = Math.max(W, (want + 63) & ~63L);
        if (m > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("too many slots: " + m);
        }
        return (int) m;
    }

    /** Banding then back-substitution; null when some key's row is inconsistent. */
    private static long[][] solve(long[] keys, int m, int r, long seed) {
        long[] coeff = new long[m];
        long[] result = new long[m];
        long range = m - W + 1;
        long resultMask = r == 64 ? -1L : (1L << r) - 1;
        long seedMix = QuotientFilter.mix(seed);
        for (long key : keys) {
            long h = hash(key, seedMix);
            int s = start(h, range);
            long c = coefficients(h);
            long b = fingerprint(h) & resultMask;
            while (true) {
                if (coeff[s] == 0) {
                    coeff[s] = c;
                    result[s] = b;
                    break;
                }
                c ^= coeff[s];
                b ^= result[s];
                if (c == 0) {
                    if (b != 0) {
                        return null;
                    }
                    break; // redundant row (a duplicate key): already satisfied
                }
                int tz = Long.numberOfTrailingZeros(c);
                s += tz;
                c >>>= tz;
            }
        }
        // Back-substitution, last row first; a row with no pivot takes Z = 0 (any value would do).
        long[] z = new long[m];
        for (int i = m - 1; i >= 0; i--) {
            long c = coeff[i];
            if (c == 0) {
                continue;
            }
            long v = result[i];
            for (long rest = c & ~1L; rest != 0; rest &= rest - 1) {
                v ^= z[i + Long.numberOfTrailingZeros(rest)];
            }
            z[i] = v;
        }
        long[][] columns = new long[r][m >>> 6];
        for (int i = 0; i < m; i++) {
            long v = z[i];
            while (v != 0) {
                int k = Long.numberOfTrailingZeros(v);
                columns[k][i >>> 6] |= 1L << i;
                v &= v - 1;
            }
        }
        return columns;
    }

    /** Whether {@code key} may be in the set: true for every key it was built from. */
    public boolean mayContain(long key) {
        long h = hash(key, seedMix);
        int s = start(h, m - W + 1);
        long c = coefficients(h);
        long b = fingerprint(h);
        int word = s >>> 6;
        int off = s & 63;
        for (int k = 0; k < r; k++) {
            long[] col = columns[k];
            long window = col[word] >>> off;
            if (off != 0) {
                window |= col[word + 1] << (64 - off);
            }
            if ((Long.bitCount(window & c) & 1) != ((b >>> k) & 1)) {
                return false;
            }
        }
        return true;
    }

    public int slots() {
        return m;
    }

    public int resultBits() {
        return r;
    }

    /** Seeds tried, the last one succeeding (1 = first try). */
    public int attempts() {
        return attempts;
    }

    /** Allocated solution bits: m r. */
    public long bitCount() {
        return 64L * columns.length * (m >>> 6);
    }

    /** The seed used (the last one tried). */
    public long seed() {
        return seed;
    }

    private static long hash(long key, long seedMix) {
        return QuotientFilter.mix(key ^ seedMix);
    }

    /** Uniform in [0, range) from the hash's top bits (Lemire's multiply-shift). */
    private static int start(long h, long range) {
        return (int) Math.multiplyHigh(h >>> 1, range << 1);
    }

    private static long coefficients(long h) {
        return QuotientFilter.mix(h + 0x9e3779b97f4a7c15L) | 1L;
    }

    private static long fingerprint(long h) {
        return QuotientFilter.mix(h ^ 0xd6e8feb86659fd93L);
    }
}
