package org.blockfilter.wallet.psbt;

import java.util.Arrays;
import java.util.Optional;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.internal.CryptoUtils;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptPattern;

/**
 * What an input spends and how, from its UTXO and scripts, with BIP 174's signer checks: a redeem
 * script must hash to the P2SH output, a witness script to the P2WSH program, and a legacy input
 * needs its full previous transaction. Immutable.
 *
 * @param kind       the script type
 * @param value      the spent amount
 * @param spentScript the spent output's scriptPubKey
 * @param scriptCode what the signature hash commits to (BIP 143's scriptCode, or the legacy script);
 *                   null for taproot
 * @param redeemScript P2SH's redeem script, or null
 * @param witnessScript P2WSH's witness script, or null
 */
record InputShape(
        Kind kind, Coin value, byte[] spentScript, byte[] scriptCode, byte[] redeemScript, byte[] witnessScript) {
    enum Kind {
        P2PKH,
        P2SH,
        P2WPKH,
        SH_P2WPKH,
        P2WSH,
        SH_P2WSH,
        P2TR;

        boolean segwitV0() {
            return this == P2WPKH || this == SH_P2WPKH || this == P2WSH || this == SH_P2WSH;
        }
    }

    /** Why input {@code i} cannot be signed or finalized, or its shape. */
    static InputShape of(Psbt psbt, int i) {
        PsbtMap in = psbt.input(i);
        TransactionOutput spent = psbt.spentOutput(i)
                .orElseThrow(() -> new IllegalArgumentException(
                        "input " + i + " has neither a witness UTXO nor its previous transaction"));
        byte[] spk = spent.getScriptBytes();
        Script s = Script.parse(spk);
        byte[] redeem = in.get(PsbtField.IN_REDEEM_SCRIPT.type()).orElse(null);
        byte[] witness = in.get(PsbtField.IN_WITNESS_SCRIPT.type()).orElse(null);
        Coin value = spent.getValue();
        if (ScriptPattern.isP2TR(s)) {
            return new InputShape(Kind.P2TR, value, spk, null, null, null);
        }
        byte[] program = spk;
        boolean nested = false;
        if (ScriptPattern.isP2SH(s)) {
            if (redeem == null) {
                throw new IllegalArgumentException("input " + i + " spends P2SH but has no redeem script");
            }
            if (!Arrays.equals(
                    ScriptBuilder.createP2SHOutputScript(CryptoUtils.sha256hash160(redeem))
                            .program(),
                    spk)) {
                throw new IllegalArgumentException(
                        "input " + i + ": the redeem script does not match the spent P2SH output");
            }
            program = redeem;
            nested = true;
        }
        Script p = Script.parse(program);
        if (ScriptPattern.isP2WPKH(p)) {
            byte[] code = ScriptBuilder.createP2PKHOutputScript(ScriptPattern.extractHashFromP2WH(p))
                    .program();
            return new InputShape(nested ? Kind.SH_P2WPKH : Kind.P2WPKH, value, spk, code, redeem, null);
        }
        if (ScriptPattern.isP2WSH(p)) {
            if (witness == null) {
                throw new IllegalArgumentException("input " + i + " spends P2WSH but has no witness script");
            }
            if (!Arrays.equals(Sha256Hash.hash(witness), ScriptPattern.extractHashFromP2WH(p))) {
                throw new IllegalArgumentException(
                        "input " + i + ": the witness script does not match the P2WSH program");
            }
            return new InputShape(nested ? Kind.SH_P2WSH : Kind.P2WSH, value, spk, witness, redeem, witness);
        }
        if (psbt.input(i).get(PsbtField.IN_NON_WITNESS_UTXO.type()).isEmpty()) {
            throw new IllegalArgumentException(
                    "input " + i
                            + " is not segwit: BIP 174 requires its previous transaction (PSBT_IN_NON_WITNESS_UTXO) to sign it");
        }
        if (nested) {
            return new InputShape(Kind.P2SH, value, spk, redeem, redeem, null);
        }
        if (ScriptPattern.isP2PKH(p)) {
            return new InputShape(Kind.P2PKH, value, spk, spk, null, null);
        }
        throw new IllegalArgumentException("input " + i + " spends a script this wallet does not sign: " + s);
    }

    /** Whether {@code pubKey} is one this input's script pays to. */
    boolean involves(byte[] pubKey) {
        return switch (kind) {
            case P2PKH, P2WPKH, SH_P2WPKH ->
                Arrays.equals(ECKey.fromPublicOnly(pubKey).getPubKeyHash(), Arrays.copyOfRange(scriptCode, 3, 23));
            case P2WSH, SH_P2WSH, P2SH ->
                Script.parse(scriptCode).getChunks().stream()
                        .anyMatch(c -> c.data != null && Arrays.equals(c.data, pubKey));
            case P2TR -> false;
        };
    }

    /** The x-only output key of a taproot output. */
    byte[] outputKey() {
        return Arrays.copyOfRange(spentScript, 2, 34);
    }

    Optional<Script> multisig() {
        Script s = Script.parse(scriptCode);
        return ScriptPattern.isSentToMultisig(s) ? Optional.of(s) : Optional.empty();
    }
}
