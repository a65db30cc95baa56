package org.blockfilter.wallet.psbt;

import java.util.Arrays;
import java.util.Optional;

/**
 * The key types of BIP 174 (version 0 and those BIP 370 defines for version 2) and BIP 371, by
 * map, with their names as the BIPs spell them. Each knows what its key data must be; the decoder
 * checks the values. Immutable.
 */
public enum PsbtField {
    GLOBAL_UNSIGNED_TX(Scope.GLOBAL, 0x00, KeyData.NONE),
    GLOBAL_XPUB(Scope.GLOBAL, 0x01, KeyData.XPUB),
    GLOBAL_TX_VERSION(Scope.GLOBAL, 0x02, KeyData.V2_ONLY),
    GLOBAL_FALLBACK_LOCKTIME(Scope.GLOBAL, 0x03, KeyData.V2_ONLY),
    GLOBAL_INPUT_COUNT(Scope.GLOBAL, 0x04, KeyData.V2_ONLY),
    GLOBAL_OUTPUT_COUNT(Scope.GLOBAL, 0x05, KeyData.V2_ONLY),
    GLOBAL_TX_MODIFIABLE(Scope.GLOBAL, 0x06, KeyData.V2_ONLY),
    GLOBAL_OWNERSHIP_COMMITMENT(Scope.GLOBAL, 0x07, KeyData.NONE),
    GLOBAL_VERSION(Scope.GLOBAL, 0xfb, KeyData.NONE),
    GLOBAL_PROPRIETARY(Scope.GLOBAL, 0xfc, KeyData.PROPRIETARY),

    IN_NON_WITNESS_UTXO(Scope.INPUT, 0x00, KeyData.NONE),
    IN_WITNESS_UTXO(Scope.INPUT, 0x01, KeyData.NONE),
    IN_PARTIAL_SIG(Scope.INPUT, 0x02, KeyData.PUBKEY),
    IN_SIGHASH_TYPE(Scope.INPUT, 0x03, KeyData.NONE),
    IN_REDEEM_SCRIPT(Scope.INPUT, 0x04, KeyData.NONE),
    IN_WITNESS_SCRIPT(Scope.INPUT, 0x05, KeyData.NONE),
    IN_BIP32_DERIVATION(Scope.INPUT, 0x06, KeyData.PUBKEY),
    IN_FINAL_SCRIPTSIG(Scope.INPUT, 0x07, KeyData.NONE),
    IN_FINAL_SCRIPTWITNESS(Scope.INPUT, 0x08, KeyData.NONE),
    IN_POR_COMMITMENT(Scope.INPUT, 0x09, KeyData.NONE),
    IN_RIPEMD160(Scope.INPUT, 0x0a, KeyData.HASH20),
    IN_SHA256(Scope.INPUT, 0x0b, KeyData.HASH32),
    IN_HASH160(Scope.INPUT, 0x0c, KeyData.HASH20),
    IN_HASH256(Scope.INPUT, 0x0d, KeyData.HASH32),
    IN_PREVIOUS_TXID(Scope.INPUT, 0x0e, KeyData.V2_ONLY),
    IN_OUTPUT_INDEX(Scope.INPUT, 0x0f, KeyData.V2_ONLY),
    IN_SEQUENCE(Scope.INPUT, 0x10, KeyData.V2_ONLY),
    IN_REQUIRED_TIME_LOCKTIME(Scope.INPUT, 0x11, KeyData.V2_ONLY),
    IN_REQUIRED_HEIGHT_LOCKTIME(Scope.INPUT, 0x12, KeyData.V2_ONLY),
    IN_TAP_KEY_SIG(Scope.INPUT, 0x13, KeyData.NONE),
    IN_TAP_SCRIPT_SIG(Scope.INPUT, 0x14, KeyData.XONLY_AND_LEAF),
    IN_TAP_LEAF_SCRIPT(Scope.INPUT, 0x15, KeyData.CONTROL_BLOCK),
    IN_TAP_BIP32_DERIVATION(Scope.INPUT, 0x16, KeyData.XONLY),
    IN_TAP_INTERNAL_KEY(Scope.INPUT, 0x17, KeyData.NONE),
    IN_TAP_MERKLE_ROOT(Scope.INPUT, 0x18, KeyData.NONE),
    IN_OWNERSHIP_PROOF(Scope.INPUT, 0x19, KeyData.NONE),
    IN_PROPRIETARY(Scope.INPUT, 0xfc, KeyData.PROPRIETARY),

    OUT_REDEEM_SCRIPT(Scope.OUTPUT, 0x00, KeyData.NONE),
    OUT_WITNESS_SCRIPT(Scope.OUTPUT, 0x01, KeyData.NONE),
    OUT_BIP32_DERIVATION(Scope.OUTPUT, 0x02, KeyData.PUBKEY),
    OUT_AMOUNT(Scope.OUTPUT, 0x03, KeyData.V2_ONLY),
    OUT_SCRIPT(Scope.OUTPUT, 0x04, KeyData.V2_ONLY),
    OUT_TAP_INTERNAL_KEY(Scope.OUTPUT, 0x05, KeyData.NONE),
    OUT_TAP_TREE(Scope.OUTPUT, 0x06, KeyData.NONE),
    OUT_TAP_BIP32_DERIVATION(Scope.OUTPUT, 0x07, KeyData.XONLY),
    OUT_PROPRIETARY(Scope.OUTPUT, 0xfc, KeyData.PROPRIETARY);

    /** Which map a key type belongs to. */
    public enum Scope {
        GLOBAL,
        INPUT,
        OUTPUT
    }

    /** What a field's key data must be. */
    enum KeyData {
        NONE,
        XPUB,
        PUBKEY,
        XONLY,
        XONLY_AND_LEAF,
        CONTROL_BLOCK,
        HASH20,
        HASH32,
        PROPRIETARY,
        /** Defined by BIP 370 for version 2 only; version 0 must exclude it. */
        V2_ONLY
    }

    private final Scope scope;
    private final int type;
    private final KeyData keyData;

    PsbtField(Scope scope, int type, KeyData keyData) {
        this.scope = scope;
        this.type = type;
        this.keyData = keyData;
    }

    public Scope scope() {
        return scope;
    }

    public int type() {
        return type;
    }

    KeyData keyData() {
        return keyData;
    }

    /** The field of this scope and type, empty for a type neither BIP defines (kept as it is). */
    public static Optional<PsbtField> of(Scope scope, long type) {
        return Arrays.stream(values())
                .filter(f -> f.scope == scope && f.type == type)
                .findFirst();
    }

    /** As the BIPs spell it, e.g. {@code PSBT_IN_WITNESS_UTXO (0x01)}. */
    public String spec() {
        return "PSBT_" + name() + String.format(" (0x%02x)", type);
    }
}
