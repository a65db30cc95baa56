package org.blockfilter.regtest.embedded.internal;

import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptPattern;

/**
 * Test helper (only the embedded node's tests sign with it; the scenario generator has its own
 * signer for every output kind): builds signed P2PKH and P2WPKH spends with SIGHASH_ALL. All
 * inputs and outputs go in first, then every input is signed, so no signature covers a half-built transaction. bitcoinj signs
 * with RFC 6979 nonces, so the same inputs give the same bytes. Stateless.
 */
public final class InputSigner {
    /** An output to spend and the key that owns it. */
    public record Input(OutPoint outpoint, long value, byte[] script, ECKey key) {}

    private InputSigner() {}

    /**
     * Signs every input of {@code tx}, whose inputs must be exactly {@code inputs} in order
     * (as added by {@link #addInputs}).
     */
    public static Transaction sign(Transaction tx, List<Input> inputs) {
        for (int i = 0; i < inputs.size(); i++) {
            Input in = inputs.get(i);
            Script spk = Script.parse(in.script());
            TransactionInput unsigned = tx.getInput(i);
            TransactionInput signed;
            if (ScriptPattern.isP2PKH(spk)) {
                TransactionSignature sig = tx.calculateSignature(i, in.key(), spk, Transaction.SigHash.ALL, false);
                signed = unsigned.withScriptSig(ScriptBuilder.createInputScript(sig, in.key()))
                        .withoutWitness();
            } else if (ScriptPattern.isP2WPKH(spk)) {
                TransactionSignature sig = tx.calculateWitnessSignature(
                        i,
                        in.key(),
                        ScriptBuilder.createP2PKHOutputScript(in.key()).program(),
                        Coin.valueOf(in.value()),
                        Transaction.SigHash.ALL,
                        false);
                signed = unsigned.withScriptSig(ScriptBuilder.createEmpty())
                        .withWitness(TransactionWitness.redeemP2WPKH(sig, in.key()));
            } else {
                throw new IllegalArgumentException("can only sign P2PKH and P2WPKH, not " + spk);
            }
            tx.replaceInput(i, signed);
        }
        return tx;
    }

    /** Adds unsigned inputs for {@code inputs} to {@code tx}. */
    public static void addInputs(Transaction tx, List<Input> inputs) {
        for (Input in : inputs) {
            TransactionOutPoint op =
                    new TransactionOutPoint(in.outpoint().index(), in.outpoint().txid());
            tx.addInput(new TransactionInput(tx, new byte[0], op, Coin.valueOf(in.value())));
        }
    }
}
