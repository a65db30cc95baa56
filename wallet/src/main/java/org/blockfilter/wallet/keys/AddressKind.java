package org.blockfilter.wallet.keys;

import org.bitcoinj.base.ScriptType;
import org.bitcoinj.crypto.ChildNumber;

/**
 * The account kinds the wallet derives, each a BIP 43 purpose with its script type. A wallet from
 * a mnemonic has P2PKH, P2WPKH and P2TR accounts; the others come from descriptors ({@code watch
 * --descriptor}). Immutable; never null.
 */
public enum AddressKind {
    /** BIP 44, pay to public key hash. */
    P2PKH(44, ScriptType.P2PKH),
    /** BIP 84, native segwit v0 pay to witness public key hash. */
    P2WPKH(84, ScriptType.P2WPKH),
    /** BIP 86, single-key taproot (key path only, no script tree). */
    P2TR(86, ScriptType.P2TR),
    /** BIP 49, P2WPKH nested in P2SH ({@code sh(wpkh(...))}). */
    P2SH_P2WPKH(49, ScriptType.P2SH),
    /** BIP 48 script type 2, multisig in P2WSH ({@code wsh(multi|sortedmulti(...))}). */
    P2WSH(48, ScriptType.P2WSH),
    /** BIP 48 script type 1, multisig in P2WSH nested in P2SH ({@code sh(wsh(multi|sortedmulti(...)))}). */
    P2SH_P2WSH(48, ScriptType.P2SH);

    private final int purpose;
    private final ScriptType scriptType;

    AddressKind(int purpose, ScriptType scriptType) {
        this.purpose = purpose;
        this.scriptType = scriptType;
    }

    /** The BIP 43 / BIP 48 purpose of this kind's accounts (44, 49, 84, 86, or 48 for multisig). */
    public int purpose() {
        return purpose;
    }

    /** The purpose as the hardened first step of an account's derivation path, {@code m/purpose'}. */
    public ChildNumber purposeChild() {
        return new ChildNumber(purpose, true);
    }

    /** The bitcoinj script type of this kind's outputs. */
    public ScriptType scriptType() {
        return scriptType;
    }

    /** The kinds a wallet from a mnemonic has (and signs for): P2PKH, P2WPKH, P2TR. */
    public static java.util.EnumSet<AddressKind> seedKinds() {
        return java.util.EnumSet.of(P2PKH, P2WPKH, P2TR);
    }

    /** Whether the wallet signs for this kind itself (the others are watch-only: their spending needs PSBT). */
    public boolean signable() {
        return this == P2PKH || this == P2WPKH || this == P2TR;
    }
}
