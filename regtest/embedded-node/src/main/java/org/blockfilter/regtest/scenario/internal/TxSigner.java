package org.blockfilter.regtest.scenario.internal;

import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;

/**
 * Builds and signs scenario transactions with bitcoinj (SIGHASH_ALL): P2PKH, P2WPKH, 2-of-3
 * P2SH and P2WSH multisig, and bare 1-of-2 multisig. Stateless.
 */
public final class TxSigner {
    /** Fee rate in satoshis per virtual byte; above btcd's and Core's 1 sat/vB relay minimum. */
    public static final long FEE_RATE = 3;

    private TxSigner() {}

    /** An output to create: a script and a value (zero for OP_RETURN). */
    public record Out(Script script, Coin value) {}

    /** An upper estimate of the fee for these inputs and outputs at {@link #FEE_RATE}. */
    public static Coin fee(List<OwnedUtxo> inputs, List<Out> outputs) {
        long vbytes = 11;
        for (OwnedUtxo u : inputs) {
            vbytes += switch (u.script().kind()) {
                case P2PKH -> 149;
                case P2WPKH -> 69;
                case P2SH_MULTISIG -> 298;
                case P2WSH_MULTISIG -> 106;
                case BARE_MULTISIG -> 116;
                default ->
                    throw new IllegalArgumentException(
                            "cannot spend " + u.script().kind());
            };
        }
        for (Out o : outputs) {
            vbytes += 9 + o.script().program().length;
        }
        return Coin.valueOf(vbytes * FEE_RATE);
    }

    public static Transaction sign(List<OwnedUtxo> inputs, List<Out> outputs) {
        Transaction tx = new Transaction();
        for (OwnedUtxo u : inputs) {
            tx.addInput(new TransactionInput(tx, new byte[0], u.outpoint(), u.value()));
        }
        for (Out o : outputs) {
            tx.addOutput(o.value(), o.script());
        }
        for (int i = 0; i < inputs.size(); i++) {
            OwnedUtxo u = inputs.get(i);
            List<ECKey> keys = u.script().keys();
            Script spk = u.script().scriptPubKey();
            TransactionInput in = tx.getInput(i);
            switch (u.script().kind()) {
                case P2PKH ->
                    in = in.withScriptSig(
                            ScriptBuilder.createInputScript(legacy(tx, i, keys.get(0), spk), keys.get(0)));
                case P2WPKH -> {
                    Script scriptCode = ScriptBuilder.createP2PKHOutputScript(keys.get(0));
                    TransactionSignature sig = tx.calculateWitnessSignature(
                            i, keys.get(0), scriptCode, u.value(), Transaction.SigHash.ALL, false);
                    in = in.withWitness(TransactionWitness.redeemP2WPKH(sig, keys.get(0)));
                }
                case P2SH_MULTISIG -> {
                    Script redeem = u.script().redeemScript().orElseThrow();
                    in = in.withScriptSig(ScriptBuilder.createP2SHMultiSigInputScript(
                            List.of(legacy(tx, i, keys.get(0), redeem), legacy(tx, i, keys.get(1), redeem)), redeem));
                }
                case P2WSH_MULTISIG -> {
                    Script ws = u.script().redeemScript().orElseThrow();
                    TransactionSignature s0 =
                            tx.calculateWitnessSignature(i, keys.get(0), ws, u.value(), Transaction.SigHash.ALL, false);
                    TransactionSignature s1 =
                            tx.calculateWitnessSignature(i, keys.get(1), ws, u.value(), Transaction.SigHash.ALL, false);
                    in = in.withWitness(TransactionWitness.redeemP2WSH(ws, s0, s1));
                }
                case BARE_MULTISIG ->
                    in = in.withScriptSig(ScriptBuilder.createMultiSigInputScript(legacy(tx, i, keys.get(0), spk)));
                default ->
                    throw new IllegalArgumentException(
                            "cannot spend " + u.script().kind());
            }
            tx.replaceInput(i, in);
        }
        return tx;
    }

    private static TransactionSignature legacy(Transaction tx, int index, ECKey key, Script scriptCode) {
        return tx.calculateSignature(index, key, scriptCode, Transaction.SigHash.ALL, false);
    }
}
