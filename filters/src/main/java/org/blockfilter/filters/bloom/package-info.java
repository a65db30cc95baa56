/**
 * BIP 37 connection Bloom filters and the Bloom filter math.
 *
 * <p>{@link org.blockfilter.filters.bloom.Bip37Filter} wraps bitcoinj's {@code BloomFilter} and fixes
 * where it departs from Bitcoin Core (the reference that the BIP 37 vectors come from):
 * the hash-function count, empty filters, unknown flags, and transaction matching.
 * {@link org.blockfilter.filters.bloom.BloomMath} holds the formulas,
 * {@link org.blockfilter.filters.bloom.Bip37} the protocol limits.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0037.mediawiki">BIP 37</a>
 */
package org.blockfilter.filters.bloom;
