package org.blockfilter.wallet.psbt;

import java.util.Arrays;
import java.util.Optional;

/**
 * The key types of BIP 174 (version 0 and those BIP 370 defines for version 2) and BIP 371, by
 * map, with their names as the BIPs spell them. Each knows what its key data must be; the decoder
 * checks the values. Immutable.
 */
public enum PsbtField {
    /** The unsigned transaction, without scriptSigs or witnesses (version 0 only). */
    GLOBAL_UNSIGNED_TX(Scope.GLOBAL, 0x00, KeyData.NONE),
    /** An extended public key and the fingerprint and path of its origin, keyed by the xpub. */
    GLOBAL_XPUB(Scope.GLOBAL, 0x01, KeyData.XPUB),
    /** The transaction's version (BIP 370, version 2). */
    GLOBAL_TX_VERSION(Scope.GLOBAL, 0x02, KeyData.V2_ONLY),
    /** The lock time to use when no input requires one (BIP 370). */
    GLOBAL_FALLBACK_LOCKTIME(Scope.GLOBAL, 0x03, KeyData.V2_ONLY),
    /** How many inputs the transaction has (BIP 370). */
    GLOBAL_INPUT_COUNT(Scope.GLOBAL, 0x04, KeyData.V2_ONLY),
    /** How many outputs the transaction has (BIP 370). */
    GLOBAL_OUTPUT_COUNT(Scope.GLOBAL, 0x05, KeyData.V2_ONLY),
    /**
     * Flags saying whether inputs or outputs may still be added, and whether a signature uses SIGHASH_SINGLE (BIP 370).
     */
    GLOBAL_TX_MODIFIABLE(Scope.GLOBAL, 0x06, KeyData.V2_ONLY),
    /** A commitment to the ownership of inputs (BIP 174's reserved global type 0x07). */
    GLOBAL_OWNERSHIP_COMMITMENT(Scope.GLOBAL, 0x07, KeyData.NONE),
    /** The PSBT version number; absent means version 0. */
    GLOBAL_VERSION(Scope.GLOBAL, 0xfb, KeyData.NONE),
    /** A proprietary field: an identifier prefix and subtype chosen by its user. */
    GLOBAL_PROPRIETARY(Scope.GLOBAL, 0xfc, KeyData.PROPRIETARY),

    /** The whole previous transaction of the input, needed to sign a non-segwit input. */
    IN_NON_WITNESS_UTXO(Scope.INPUT, 0x00, KeyData.NONE),
    /** The previous output the input spends (amount and script), enough to sign a segwit input. */
    IN_WITNESS_UTXO(Scope.INPUT, 0x01, KeyData.NONE),
    /** A signature for the input, keyed by the public key that made it. */
    IN_PARTIAL_SIG(Scope.INPUT, 0x02, KeyData.PUBKEY),
    /** The sighash type signers must use for the input. */
    IN_SIGHASH_TYPE(Scope.INPUT, 0x03, KeyData.NONE),
    /** The P2SH redeem script of the input. */
    IN_REDEEM_SCRIPT(Scope.INPUT, 0x04, KeyData.NONE),
    /** The P2WSH witness script of the input. */
    IN_WITNESS_SCRIPT(Scope.INPUT, 0x05, KeyData.NONE),
    /** The fingerprint and derivation path of a key the input needs, keyed by the public key. */
    IN_BIP32_DERIVATION(Scope.INPUT, 0x06, KeyData.PUBKEY),
    /** The finalized scriptSig of the input. */
    IN_FINAL_SCRIPTSIG(Scope.INPUT, 0x07, KeyData.NONE),
    /** The finalized witness of the input. */
    IN_FINAL_SCRIPTWITNESS(Scope.INPUT, 0x08, KeyData.NONE),
    /** A BIP 127 proof-of-reserves commitment. */
    IN_POR_COMMITMENT(Scope.INPUT, 0x09, KeyData.NONE),
    /** The preimage of a RIPEMD-160 hash the input's script checks, keyed by the hash. */
    IN_RIPEMD160(Scope.INPUT, 0x0a, KeyData.HASH20),
    /** The preimage of a SHA-256 hash the input's script checks, keyed by the hash. */
    IN_SHA256(Scope.INPUT, 0x0b, KeyData.HASH32),
    /** The preimage of a HASH160 the input's script checks, keyed by the hash. */
    IN_HASH160(Scope.INPUT, 0x0c, KeyData.HASH20),
    /** The preimage of a HASH256 the input's script checks, keyed by the hash. */
    IN_HASH256(Scope.INPUT, 0x0d, KeyData.HASH32),
    /** The txid of the output the input spends (BIP 370). */
    IN_PREVIOUS_TXID(Scope.INPUT, 0x0e, KeyData.V2_ONLY),
    /** The index of the output the input spends (BIP 370). */
    IN_OUTPUT_INDEX(Scope.INPUT, 0x0f, KeyData.V2_ONLY),
    /** The input's sequence number (BIP 370). */
    IN_SEQUENCE(Scope.INPUT, 0x10, KeyData.V2_ONLY),
    /** The smallest time-based lock time the input requires (BIP 370). */
    IN_REQUIRED_TIME_LOCKTIME(Scope.INPUT, 0x11, KeyData.V2_ONLY),
    /** The smallest height-based lock time the input requires (BIP 370). */
    IN_REQUIRED_HEIGHT_LOCKTIME(Scope.INPUT, 0x12, KeyData.V2_ONLY),
    /** A BIP 340 signature for a taproot key-path spend (BIP 371). */
    IN_TAP_KEY_SIG(Scope.INPUT, 0x13, KeyData.NONE),
    /** A BIP 340 signature for a taproot script-path spend, keyed by the x-only key and the leaf hash (BIP 371). */
    IN_TAP_SCRIPT_SIG(Scope.INPUT, 0x14, KeyData.XONLY_AND_LEAF),
    /** A taproot leaf script and its version, keyed by its control block (BIP 371). */
    IN_TAP_LEAF_SCRIPT(Scope.INPUT, 0x15, KeyData.CONTROL_BLOCK),
    /** The leaf hashes, fingerprint and path of an x-only key the input needs, keyed by that key (BIP 371). */
    IN_TAP_BIP32_DERIVATION(Scope.INPUT, 0x16, KeyData.XONLY),
    /** The taproot internal key of the input (BIP 371). */
    IN_TAP_INTERNAL_KEY(Scope.INPUT, 0x17, KeyData.NONE),
    /** The taproot merkle root of the input's script tree (BIP 371). */
    IN_TAP_MERKLE_ROOT(Scope.INPUT, 0x18, KeyData.NONE),
    /** A BIP 322 proof that the signer owns the input. */
    IN_OWNERSHIP_PROOF(Scope.INPUT, 0x19, KeyData.NONE),
    /** A proprietary input field. */
    IN_PROPRIETARY(Scope.INPUT, 0xfc, KeyData.PROPRIETARY),

    /** The P2SH redeem script of the output. */
    OUT_REDEEM_SCRIPT(Scope.OUTPUT, 0x00, KeyData.NONE),
    /** The P2WSH witness script of the output. */
    OUT_WITNESS_SCRIPT(Scope.OUTPUT, 0x01, KeyData.NONE),
    /**
     * The fingerprint and derivation path of a key of the output, keyed by the public key: how a wallet recognises its
     * change.
     */
    OUT_BIP32_DERIVATION(Scope.OUTPUT, 0x02, KeyData.PUBKEY),
    /** The output's amount (BIP 370). */
    OUT_AMOUNT(Scope.OUTPUT, 0x03, KeyData.V2_ONLY),
    /** The output's script (BIP 370). */
    OUT_SCRIPT(Scope.OUTPUT, 0x04, KeyData.V2_ONLY),
    /** The taproot internal key of the output (BIP 371). */
    OUT_TAP_INTERNAL_KEY(Scope.OUTPUT, 0x05, KeyData.NONE),
    /** The taproot script tree of the output (BIP 371). */
    OUT_TAP_TREE(Scope.OUTPUT, 0x06, KeyData.NONE),
    /** The leaf hashes, fingerprint and path of an x-only key of the output (BIP 371). */
    OUT_TAP_BIP32_DERIVATION(Scope.OUTPUT, 0x07, KeyData.XONLY),
    /** A proprietary output field. */
    OUT_PROPRIETARY(Scope.OUTPUT, 0xfc, KeyData.PROPRIETARY);

    /** Which map a key type belongs to. */
    public enum Scope {
        /** The global map, once per PSBT. */
        GLOBAL,
        /** An input's map, one per input in order. */
        INPUT,
        /** An output's map, one per output in order. */
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

    /** Which map this field belongs to. */
    public Scope scope() {
        return scope;
    }

    /** The field's key type, the first byte of its key. */
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
