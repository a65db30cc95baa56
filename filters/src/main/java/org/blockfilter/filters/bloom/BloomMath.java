package org.blockfilter.filters.bloom;

/**
 * The standard Bloom filter formulas, for a filter of m bits, k hash functions and n inserted elements.
 *
 * <ul>
 *   <li>false-positive rate: p = (1 - e^{-kn/m})^k (hash functions taken as independent and uniform);</li>
 *   <li>optimal number of hash functions: k* = (m/n) ln 2;</li>
 *   <li>bits per element for a target rate p at k*: m/n = -ln p / (ln 2)^2 (about 1.44 log2(1/p));</li>
 *   <li>expected fraction of set bits: 1 - e^{-kn/m}, exactly 1/2 at k*;</li>
 *   <li>BIP 37 sizing, as Bitcoin Core's {@code CBloomFilter} constructor computes it, with its caps.</li>
 * </ul>
 *
 * Stateless and thread-safe. Arguments out of range throw {@link IllegalArgumentException}.
 */
public final class BloomMath {
    private static final double LN2 = Math.log(2);
    private static final double LN2_SQUARED = LN2 * LN2;

    private BloomMath() {}

    /** (1 - e^{-kn/m})^k for m bits, k hash functions, n elements. */
    public static double falsePositiveRate(long bits, int hashFuncs, long elements) {
        requirePositive(bits, "bits");
        requireNonNegative(hashFuncs, "hashFuncs");
        requireNonNegative(elements, "elements");
        return Math.pow(expectedBitDensity(bits, hashFuncs, elements), hashFuncs);
    }

    /** The exact rate (fraction of set bits)^k of a filter whose bits are known: the probability a random element matches. */
    public static double falsePositiveRateOfDensity(double density, int hashFuncs) {
        if (!(density >= 0 && density <= 1)) {
            throw new IllegalArgumentException("density must be in [0, 1], got " + density);
        }
        requireNonNegative(hashFuncs, "hashFuncs");
        return Math.pow(density, hashFuncs);
    }

    /** k* = (m/n) ln 2, the real-valued number of hash functions that minimises the false-positive rate. */
    public static double optimalHashFunctions(long bits, long elements) {
        requirePositive(bits, "bits");
        requirePositive(elements, "elements");
        return (double) bits / elements * LN2;
    }

    /** m/n = -ln p / (ln 2)^2, the bits per element an optimal filter needs for false-positive rate p. */
    public static double bitsPerElement(double falsePositiveRate) {
        requireRate(falsePositiveRate);
        return -Math.log(falsePositiveRate) / LN2_SQUARED;
    }

    /** 1 - e^{-kn/m}, the expected fraction of bits set after inserting n elements (1/2 at k*). */
    public static double expectedBitDensity(long bits, int hashFuncs, long elements) {
        requirePositive(bits, "bits");
        requireNonNegative(hashFuncs, "hashFuncs");
        requireNonNegative(elements, "elements");
        return 1 - Math.exp(-(double) hashFuncs * elements / bits);
    }

    /** The fraction of set bits in a filter's bit array ({@code 0} for an empty array). */
    public static double measuredBitDensity(byte[] filterBits) {
        if (filterBits.length == 0) {
            return 0;
        }
        long set = 0;
        for (byte b : filterBits) {
            set += Integer.bitCount(b & 0xff);
        }
        return (double) set / (8L * filterBits.length);
    }

    /**
     * Filter size in bytes for n elements and rate p as Bitcoin Core computes it:
     * {@code min((uint)(-1/(ln 2)^2 * n * ln p), 36000 * 8) / 8}. It can be 0 (Core then matches everything).
     */
    public static int bip37SizeBytes(long elements, double falsePositiveRate) {
        requirePositive(elements, "elements");
        requireRate(falsePositiveRate);
        double bits = -1 / LN2_SQUARED * elements * Math.log(falsePositiveRate);
        long truncated = (long) Math.min(bits, 8.0 * Bip37.MAX_BLOOM_FILTER_SIZE);
        return (int) (truncated / 8);
    }

    /**
     * Hash functions for a filter of {@code sizeBytes} and n elements as Bitcoin Core computes it:
     * {@code min((uint)(sizeBytes * 8 / n * ln 2), 50)}, where {@code sizeBytes * 8 / n} is an
     * <em>integer</em> division (bitcoinj divides in floating point, which can give one more).
     */
    public static int bip37HashFuncs(int sizeBytes, long elements) {
        requireNonNegative(sizeBytes, "sizeBytes");
        requirePositive(elements, "elements");
        long bitsPerElement = 8L * sizeBytes / elements;
        return (int) Math.min((long) (bitsPerElement * LN2), Bip37.MAX_HASH_FUNCS);
    }

    private static void requireRate(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("false-positive rate must be in (0, 1), got " + p);
        }
    }

    private static void requirePositive(long v, String name) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + v);
        }
    }

    private static void requireNonNegative(long v, String name) {
        if (v < 0) {
            throw new IllegalArgumentException(name + " must not be negative, got " + v);
        }
    }
}
