package org.blockfilter.privacylab.internal.chains;

import java.util.List;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomMath;
import org.blockfilter.privacylab.internal.filters.FastBloom;

/**
 * One filter a client sent, with what the analysis needs: its parameters, the elements bitcoinj put in it, and
 * a fast copy for scanning. Checks on creation that every one of the client's addresses matches (no false
 * negatives), through bitcoinj itself. Immutable.
 *
 * @param sizeBytes filter size
 * @param hashFuncs number of hash functions
 * @param elements  elements bitcoinj inserted (2 per key, lookahead keys included)
 * @param density   measured fraction of set bits
 * @param fast      the scanning copy
 */
public record Subject(int sizeBytes, int hashFuncs, int elements, double density, FastBloom fast) {

    /** Wraps {@code filter}, which holds {@code elements} elements and must match every hash in {@code clientHashes}. */
    public static Subject of(BloomFilter filter, int elements, List<byte[]> clientHashes) {
        for (byte[] h : clientHashes) {
            if (!filter.contains(h)) {
                throw new IllegalStateException("bitcoinj filter does not contain one of the client's addresses");
            }
        }
        Bip37Filter f = Bip37Filter.fromBitcoinj(filter);
        return new Subject(f.sizeBytes(), f.hashFuncs(), elements, f.bitDensity(), FastBloom.of(filter));
    }

    /** The formula's false-positive rate for this filter's m, k and inserted elements. */
    public double modelRate() {
        return BloomMath.falsePositiveRate(8L * sizeBytes, hashFuncs, elements);
    }

    /** The rate exactly implied by the measured bit density: density^k. */
    public double densityRate() {
        return BloomMath.falsePositiveRateOfDensity(density, hashFuncs);
    }
}
