package org.blockfilter.filters.bloom;

import org.bitcoinj.core.BloomFilter;

/** BIP 37 {@code nFlags}: which matched outputs a serving node adds to the filter as outpoints. */
public enum UpdateFlag {
    /** Never update the filter. */
    UPDATE_NONE(0, BloomFilter.BloomUpdate.UPDATE_NONE),
    /** Add the outpoint of every output whose script has a matching data push. */
    UPDATE_ALL(1, BloomFilter.BloomUpdate.UPDATE_ALL),
    /** Add the outpoint only when the matching output is pay-to-pubkey or bare multisig. */
    UPDATE_P2PUBKEY_ONLY(2, BloomFilter.BloomUpdate.UPDATE_P2PUBKEY_ONLY);

    private final int wire;
    private final BloomFilter.BloomUpdate bitcoinj;

    UpdateFlag(int wire, BloomFilter.BloomUpdate bitcoinj) {
        this.wire = wire;
        this.bitcoinj = bitcoinj;
    }

    /** The {@code nFlags} byte. */
    public int wireValue() {
        return wire;
    }

    /** bitcoinj's name for the same flag. */
    public BloomFilter.BloomUpdate toBitcoinj() {
        return bitcoinj;
    }

    /** The flag for a wire value 0, 1 or 2; anything else is {@link IllegalArgumentException}. */
    public static UpdateFlag ofWireValue(int value) {
        for (UpdateFlag f : values()) {
            if (f.wire == value) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown BIP 37 update flag " + value);
    }
}
