package org.blockfilter.filters;

/**
 * BIP 157 protocol limits, defined once.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki#filter-headers">BIP 157: getcfheaders</a>
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki#filters">BIP 157: getcfilters</a>
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki#filter-header-checkpoints">BIP 157: getcfcheckpt</a>
 */
public final class Bip157 {

    /** Most filters one {@code getcfilters} may ask for ("MUST be ... less than 1000"). */
    public static final int MAX_CFILTERS = 1000;

    /** Most filter hashes one {@code getcfheaders} may ask for ("MUST be ... less than 2000"). */
    public static final int MAX_CFHEADERS = 2000;

    /** Blocks between filter header checkpoints ({@code cfcheckpt}: heights 1000, 2000, ...). */
    public static final int CHECKPOINT_INTERVAL = 1000;

    private Bip157() {}
}
