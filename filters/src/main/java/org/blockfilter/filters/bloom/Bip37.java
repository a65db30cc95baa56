package org.blockfilter.filters.bloom;

/**
 * BIP 37 protocol constants, defined once.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0037.mediawiki#filterload-filteradd-filterclear-merkleblock">BIP 37: filterload</a>
 */
public final class Bip37 {
    /** Largest filter a peer accepts, in bytes (BIP 37: "the filter itself is ... max 36,000 bytes"). */
    public static final int MAX_BLOOM_FILTER_SIZE = 36_000;
    /** Largest number of hash functions a peer accepts (BIP 37: "maximum of 50"). */
    public static final int MAX_HASH_FUNCS = 50;
    /** The multiplier that spreads the per-function seeds: seed(i) = i * 0xFBA4C795 + nTweak (mod 2^32). */
    public static final long SEED_MULTIPLIER = 0xFBA4C795L;
    /** Largest element {@code filteradd} may add, in bytes (BIP 37). */
    public static final int MAX_SCRIPT_ELEMENT_SIZE = 520;

    private Bip37() {}
}
