package org.blockfilter.wallet.keys;

import org.bitcoinj.base.ScriptType;
import org.bitcoinj.crypto.ChildNumber;

/**
 * The account kinds the wallet derives, each a BIP 43 purpose with its script type.
 * Immutable; never null.
 */
public enum AddressKind {
    /** BIP 44, pay to public key hash. */
    P2PKH(44, ScriptType.P2PKH),
    /** BIP 84, native segwit v0 pay to witness public key hash. */
    P2WPKH(84, ScriptType.P2WPKH),
    /** BIP 86, single-key taproot (key path only, no script tree). */
    P2TR(86, ScriptType.P2TR);

    private final int purpose;
    private final ScriptType scriptType;

    AddressKind(int purpose, ScriptType scriptType) {
        this.purpose = purpose;
        this.scriptType = scriptType;
    }

    public int purpose() {
        return purpose;
    }

    public ChildNumber purposeChild() {
        return new ChildNumber(purpose, true);
    }

    public ScriptType scriptType() {
        return scriptType;
    }
}
