package org.blockfilter.wallet.psbt;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptChunk;
import org.bitcoinj.script.ScriptException;

/**
 * BIP 174's Input Finalizer: for every input with enough signatures, the final scriptSig and
 * witness (P2PKH, P2WPKH, P2SH-P2WPKH, P2WSH and P2SH-P2WSH {@code multi}/{@code sortedmulti},
 * P2TR key path), every other field but the UTXOs and unknown ones removed. Each finalized ECDSA
 * input is run through bitcoinj's script interpreter first; a taproot one is checked by the signer
 * that made it and by the node. Stateless; thread-safe.
 */
public final class PsbtFinalizer {
    /** What a finalizer keeps (BIP 174: "except the UTXO and unknown fields"). */
    private static final long[] CLEARED = {
        0x02, 0x03, 0x04, 0x05, 0x06, 0x0a, 0x0b, 0x0c, 0x0d, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18
    };

    /** The PSBT with what could be finalized, and per input still open, why. */
    public record Result(Psbt psbt, List<String> incomplete) {
        public Result {
            incomplete = List.copyOf(incomplete);
        }

        /** Whether every input is finalized, so the transaction can be extracted. */
        public boolean complete() {
            return incomplete.isEmpty();
        }
    }

    private PsbtFinalizer() {}

    /**
     * BIP 174's Input Finalizer for every input that has what it needs (signatures and scripts): writes the final
     * scriptSig and witness and clears the fields a finalizer removes. Inputs it cannot finalize are listed with the
     * reason.
     */
    public static Result finalizeAll(Psbt psbt) {
        List<String> incomplete = new ArrayList<>();
        for (int i = 0; i < psbt.inputs().size(); i++) {
            if (psbt.isFinalized(i)) {
                continue;
            }
            try {
                psbt = psbt.withInput(i, finalizeInput(psbt, i));
            } catch (IllegalArgumentException e) {
                incomplete.add(e.getMessage());
            }
        }
        return new Result(psbt, incomplete);
    }

    private static PsbtMap finalizeInput(Psbt psbt, int i) {
        InputShape shape = InputShape.of(psbt, i);
        PsbtMap in = psbt.input(i);
        byte[] scriptSig = null;
        TransactionWitness witness = null;
        switch (shape.kind()) {
            case P2TR -> {
                byte[] sig = in.get(PsbtField.IN_TAP_KEY_SIG.type())
                        .orElseThrow(() ->
                                new IllegalArgumentException("input " + i + " has no taproot key-path signature yet"));
                witness = TransactionWitness.of(sig);
            }
            case P2PKH, P2WPKH, SH_P2WPKH -> {
                PsbtMap.Entry sig = in.all(PsbtField.IN_PARTIAL_SIG.type()).stream()
                        .filter(e -> shape.involves(e.keyData()))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("input " + i + " has no signature yet"));
                if (shape.kind() == InputShape.Kind.P2PKH) {
                    scriptSig = new ScriptBuilder()
                            .data(sig.value())
                            .data(sig.keyData())
                            .build()
                            .program();
                } else {
                    witness = TransactionWitness.of(sig.value(), sig.keyData());
                }
            }
            case P2WSH, SH_P2WSH, P2SH -> {
                List<byte[]> sigs = multisigSignatures(in, shape, i);
                if (shape.kind() == InputShape.Kind.P2SH) {
                    ScriptBuilder b = new ScriptBuilder().smallNum(0);
                    sigs.forEach(b::data);
                    scriptSig = b.data(shape.redeemScript()).build().program();
                } else {
                    List<byte[]> stack = new ArrayList<>();
                    stack.add(new byte[0]); // CHECKMULTISIG's extra pop (BIP 147: must be empty)
                    stack.addAll(sigs);
                    stack.add(shape.witnessScript());
                    witness = TransactionWitness.of(stack);
                }
            }
        }
        if (shape.kind() == InputShape.Kind.SH_P2WPKH || shape.kind() == InputShape.Kind.SH_P2WSH) {
            scriptSig = new ScriptBuilder().data(shape.redeemScript()).build().program();
        }
        if (shape.kind() != InputShape.Kind.P2TR) {
            verify(psbt, i, shape, scriptSig, witness);
        }
        PsbtMap out = in.without(CLEARED);
        if (scriptSig != null) {
            out = out.with(PsbtField.IN_FINAL_SCRIPTSIG.type(), scriptSig);
        }
        if (witness != null) {
            out = out.with(PsbtField.IN_FINAL_SCRIPTWITNESS.type(), witness.serialize());
        }
        return out;
    }

    /** M signatures in the order of the script's keys, as CHECKMULTISIG wants them. */
    private static List<byte[]> multisigSignatures(PsbtMap in, InputShape shape, int i) {
        Script ms = shape.multisig()
                .orElseThrow(() -> new IllegalArgumentException(
                        "input " + i + ": its script is not a multisig this wallet can finalize"));
        List<ScriptChunk> chunks = ms.getChunks();
        int m = chunks.get(0).decodeOpN();
        List<byte[]> sigs = new ArrayList<>();
        for (ScriptChunk c : chunks.subList(1, chunks.size() - 2)) {
            Optional<byte[]> sig = in.get(PsbtField.IN_PARTIAL_SIG.type(), c.data);
            if (sig.isPresent() && sigs.size() < m) {
                sigs.add(sig.get());
            }
        }
        if (sigs.size() < m) {
            throw new IllegalArgumentException("input " + i + " has " + sigs.size() + " of the " + m
                    + " signatures its " + m + "-of-" + (chunks.size() - 3) + " multisig needs");
        }
        return sigs;
    }

    private static void verify(Psbt psbt, int i, InputShape shape, byte[] scriptSig, TransactionWitness witness) {
        Transaction tx = psbt.unsignedTx();
        TransactionInput in = tx.getInput(i).withScriptBytes(scriptSig == null ? new byte[0] : scriptSig);
        if (witness != null) {
            in = in.withWitness(witness);
        }
        tx.replaceInput(i, in);
        try {
            in.getScriptSig()
                    .correctlySpends(
                            tx, i, witness, shape.value(), Script.parse(shape.spentScript()), Script.ALL_VERIFY_FLAGS);
        } catch (ScriptException e) {
            throw new IllegalArgumentException(
                    "input " + i + " does not verify with its signatures: " + e.getMessage(), e);
        }
    }
}
