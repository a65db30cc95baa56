/**
 * Generic Golomb-coded sets as BIP 158 defines them: SipHash-2-4 keyed by a 128-bit key, hash-to-range
 * by a 64x64->128 multiply, Golomb-Rice coding with parameter P and false-positive rate 1/M. Knows nothing
 * of blocks or scripts; {@link org.blockfilter.filters.BasicFilter} says which items go in.
 *
 * <p>All types here are immutable and thread-safe. Null arguments are rejected with
 * {@link java.lang.NullPointerException}.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0158.mediawiki">BIP 158</a>
 */
package org.blockfilter.filters.gcs;
