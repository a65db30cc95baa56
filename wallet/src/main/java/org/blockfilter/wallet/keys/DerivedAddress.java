package org.blockfilter.wallet.keys;

import org.bitcoinj.base.Address;

/**
 * One derived key of the wallet: where it sits ({@code m/purpose'/coin'/0'/change/index}),
 * its address and its output script. Immutable; no null fields.
 */
public record DerivedAddress(AddressKind kind, boolean change, int index, Address address, OutputScript script) {
    /** The path below the account, e.g. {@code 0/7}. */
    public String relativePath() {
        return (change ? 1 : 0) + "/" + index;
    }
}
