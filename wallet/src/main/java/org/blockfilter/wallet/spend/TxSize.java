package org.blockfilter.wallet.spend;

import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.keys.HdAccount;

/**
 * Virtual sizes for fee estimation (BIP 141 weight / 4), upper bounds: a DER signature is taken
 * at its maximum 72 bytes (with its sighash byte), so the signed transaction is never larger than estimated.
 */
final class TxSize {
    /** version, locktime, counts, plus the segwit marker and flag (0.5 vB), rounded up. */
    static final int OVERHEAD_VB = 11;

    /** outpoint 36, empty scriptSig's length 1, nSequence 4: an input's bytes outside the witness. */
    private static final int INPUT_BASE = 41;

    /** A signature push: its length byte and the largest DER signature with its sighash byte. */
    private static final int SIGNATURE_PUSH = 1 + 72;

    private TxSize() {}

    /** The input size of one of the wallet's coins, from its account (a multisig's from its threshold and script). */
    static int inputVBytes(HdAccount account, DerivedAddress a) {
        if (a.kind() != AddressKind.P2WSH && a.kind() != AddressKind.P2SH_P2WSH) {
            return inputVBytes(a.kind());
        }
        Descriptor.Multisig m = account.chain(a.change()).multisig().orElseThrow();
        byte[] witnessScript =
                account.output(a.change(), a.index()).witnessScript().orElseThrow();
        return multisigInputVBytes(a.kind(), m.threshold(), witnessScript.length);
    }

    /** A single-key input's size; multisig inputs need {@link #multisigInputVBytes}. */
    static int inputVBytes(AddressKind kind) {
        return switch (kind) {
            case P2WPKH -> 68; // 41 bytes + (1 + 73 + 34) witness / 4
            case P2PKH -> 148;
            case P2TR -> 58; // 41 + (1 + 1 + 64) / 4: key path, 64-byte Schnorr signature
            case P2SH_P2WPKH -> 91; // 41 + 23-byte scriptSig, + (1 + 73 + 34) witness / 4
            case P2WSH, P2SH_P2WSH ->
                throw new IllegalArgumentException(kind + " input sizes depend on the threshold and witness script");
        };
    }

    /**
     * An M-of-N {@code multi}/{@code sortedmulti} input under P2WSH or P2SH-P2WSH, counted as BDK
     * does (rust-miniscript's {@code Multi::max_satisfaction_size}, {@code 1 + 73 * k}: the dummy
     * element and k signatures of 72 bytes with their push; {@code 2 + k} witness elements) and as
     * Bitcoin Core does for a signature it does not grind (src/script/sign.cpp's
     * {@code DUMMY_MAXIMUM_SIGNATURE_CREATOR}, 72-byte signatures). In weight units (BIP 141: 4 per
     * byte outside the witness, 1 inside):
     *
     * <pre>
     *   outside: 4 * (41 + scriptSig)   scriptSig 0 for P2WSH; for P2SH-P2WSH 35: a push (1) of
     *                                    the 34-byte redeem script 0x0020{32-byte hash}
     *   witness: 1                       item count (M + 2 items, at most 22)
     *          + 1                       CHECKMULTISIG's dummy element (empty)
     *          + M * (1 + 72)            signatures
     *          + compactSize(len) + len  the witness script (2-of-3: 1 + 105)
     * </pre>
     *
     * rounded up to whole vbytes: a 2-of-3 P2WSH input is 164 + 1 + 1 + 146 + 106 = 418 WU = 105 vB,
     * P2SH-P2WSH 304 + 254 = 558 WU = 140 vB.
     */
    static int multisigInputVBytes(AddressKind kind, int threshold, int witnessScriptLength) {
        int scriptSig = switch (kind) {
            case P2WSH -> 0;
            case P2SH_P2WSH -> 1 + 34;
            default -> throw new IllegalArgumentException(kind + " is not a multisig input");
        };
        int witness = 1 + 1 + threshold * SIGNATURE_PUSH + compactSizeLength(witnessScriptLength) + witnessScriptLength;
        int weight = 4 * (INPUT_BASE + scriptSig) + witness;
        return (weight + 3) / 4;
    }

    private static int compactSizeLength(int n) {
        return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
    }

    static int outputVBytes(int scriptLength) {
        return 8 + 1 + scriptLength;
    }
}
