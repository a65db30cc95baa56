package org.blockfilter.wallet.spend;

import org.blockfilter.wallet.keys.AddressKind;

/**
 * Virtual sizes for fee estimation (BIP 141 weight / 4), upper bounds: a DER signature is taken
 * at its maximum 72 bytes, so the signed transaction is never larger than estimated.
 */
final class TxSize {
    /** version, locktime, counts, plus the segwit marker and flag (0.5 vB), rounded up. */
    static final int OVERHEAD_VB = 11;

    private TxSize() {}

    static int inputVBytes(AddressKind kind) {
        return switch (kind) {
            case P2WPKH -> 68; // 41 bytes + (1 + 73 + 34) witness / 4
            case P2PKH -> 148;
            case P2TR -> 58; // 41 + (1 + 1 + 64) / 4: key path, 64-byte Schnorr signature
            case P2SH_P2WPKH -> 91; // 41 + 23-byte scriptSig, + (1 + 73 + 34) witness / 4
            case P2WSH, P2SH_P2WSH ->
                throw new IllegalArgumentException(
                        kind + " inputs need each cosigner's signature: this wallet does not sign them");
        };
    }

    static int outputVBytes(int scriptLength) {
        return 8 + 1 + scriptLength;
    }
}
