package org.blockfilter.filters;

/**
 * BIP 158 constants, defined once.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0158.mediawiki#basic-filter-type">BIP 158: basic filter type</a>
 */
public final class Bip158 {

    /** Filter type byte of the basic filter (BIP 158, "Basic Filter Type"). */
    public static final int BASIC_FILTER_TYPE = 0x00;

    /** Golomb-Rice parameter P of the basic filter. */
    public static final int BASIC_P = 19;

    /** Inverse false-positive rate M of the basic filter. */
    public static final long BASIC_M = 784_931;

    /** Length of the SipHash key: the first 16 bytes of the block hash in internal (wire) order. */
    public static final int KEY_LENGTH = 16;

    private Bip158() {}
}
