package org.blockfilter.privacylab.internal.filters;

import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.MurmurHash3;

/**
 * A read-only copy of a bitcoinj {@link BloomFilter} that answers {@code contains} with the same bit lookups,
 * faster: no lock, per-function seeds computed once, and the raw MurmurHash3 of {@link MurmurHash3}.
 *
 * <p>Why: the adversary tests every one of 33-60 million candidates against hundreds of filters, and bitcoinj's
 * {@code contains} is {@code synchronized} and recomputes each seed. The lookups are exactly bitcoinj's:
 * bit {@code (murmur3(i * 0xFBA4C795 + tweak, x) mod 8 * size)} of the little-endian bit array for each of the
 * k functions; {@code FastBloomTest} checks that it agrees with {@code BloomFilter.contains} on every candidate of
 * a sample. Immutable and thread-safe.
 */
public final class FastBloom {
    private final byte[] bits;
    private final int[] seeds;
    private final long bitCount;
    /** ceil(2^64 / bitCount), for Lemire's division-free remainder. */
    private final long reciprocal;

    private FastBloom(byte[] bits, int hashFuncs, int tweak) {
        this.bits = bits;
        this.bitCount = 8L * bits.length;
        this.reciprocal = Long.divideUnsigned(-1L, bitCount) + 1;
        this.seeds = new int[hashFuncs];
        for (int i = 0; i < hashFuncs; i++) {
            seeds[i] = MurmurHash3.seed(i, tweak);
        }
    }

    /** A copy of {@code filter}'s current bits and parameters. */
    public static FastBloom of(BloomFilter filter) {
        Bip37Filter f = Bip37Filter.fromBitcoinj(filter);
        if (f.sizeBytes() == 0) {
            throw new IllegalArgumentException("empty filter (matches everything) is not a useful subject");
        }
        return new FastBloom(f.bits(), f.hashFuncs(), f.tweak());
    }

    /** Whether {@code a} has the same size as {@code b} and every bit set in {@code b}. */
    public static boolean superset(FastBloom a, FastBloom b) {
        if (a.bits.length != b.bits.length) {
            return false;
        }
        for (int i = 0; i < a.bits.length; i++) {
            if ((a.bits[i] & b.bits[i]) != b.bits[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the first {@code length} bytes of {@code data} match, exactly as bitcoinj's {@code contains} would. */
    public boolean contains(byte[] data, int length) {
        for (int seed : seeds) {
            long bit = remainder(Integer.toUnsignedLong(MurmurHash3.hash32(seed, data, 0, length)));
            if ((bits[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code h mod bitCount} for a 32-bit unsigned h without a division (Lemire, Kaser and Kurz, "Faster remainder by
     * direct computation", 2019): exact for 32-bit numerators and divisors below 2^32.
     */
    long remainder(long h) {
        long low = reciprocal * h;
        return unsignedMultiplyHigh(low, bitCount);
    }

    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** The number of set bits (X in the element-count estimate n = -(m/k) ln(1 - X/m)). */
    public long setBits() {
        long n = 0;
        for (byte b : bits) {
            n += Integer.bitCount(b & 0xff);
        }
        return n;
    }

    /** The filter's size in bits (m). */
    public long bitCount() {
        return bitCount;
    }

    public int hashFuncs() {
        return seeds.length;
    }

    public int sizeBytes() {
        return bits.length;
    }
}
