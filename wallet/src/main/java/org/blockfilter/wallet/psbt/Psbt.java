package org.blockfilter.wallet.psbt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;

/**
 * A BIP 174 version 0 PSBT: the unsigned transaction, the global map and one map per input and
 * output. Immutable: the roles (update, sign, finalize) return new instances. Never null.
 */
public final class Psbt {
    private final PsbtMap global;
    private final byte[] unsignedTx;
    private final List<PsbtMap> inputs;
    private final List<PsbtMap> outputs;

    private Psbt(PsbtMap global, Transaction tx, List<PsbtMap> inputs, List<PsbtMap> outputs) {
        if (inputs.size() != tx.getInputs().size()
                || outputs.size() != tx.getOutputs().size()) {
            throw new IllegalArgumentException("one map per input and output of the unsigned transaction");
        }
        this.global = global;
        // The bytes as given: re-serializing through bitcoinj could differ (it refuses some versions).
        this.unsignedTx = global.get(PsbtField.GLOBAL_UNSIGNED_TX.type()).orElseThrow();
        this.inputs = List.copyOf(inputs);
        this.outputs = List.copyOf(outputs);
    }

    static Psbt of(PsbtMap global, Transaction tx, List<PsbtMap> inputs, List<PsbtMap> outputs) {
        return new Psbt(global, tx, inputs, outputs);
    }

    /** BIP 174's Creator: {@code tx} with its scriptSigs and witnesses removed and empty maps. */
    public static Psbt create(Transaction tx) {
        Transaction unsigned = Transaction.read(ByteBuffer.wrap(tx.serialize()));
        for (int i = 0; i < unsigned.getInputs().size(); i++) {
            TransactionInput in = unsigned.getInput(i);
            unsigned.replaceInput(i, in.withoutScriptBytes().withoutWitness());
        }
        PsbtMap global = PsbtMap.EMPTY.with(PsbtField.GLOBAL_UNSIGNED_TX.type(), unsigned.serialize());
        List<PsbtMap> empty = new ArrayList<>();
        unsigned.getInputs().forEach(i -> empty.add(PsbtMap.EMPTY));
        List<PsbtMap> outs = new ArrayList<>();
        unsigned.getOutputs().forEach(o -> outs.add(PsbtMap.EMPTY));
        return new Psbt(global, unsigned, empty, outs);
    }

    /**
     * Decodes a binary PSBT strictly (see {@link PsbtDecoder}); throws {@link PsbtFormatException} naming the field and
     * offset.
     */
    public static Psbt decode(byte[] bytes) {
        return PsbtDecoder.decode(bytes);
    }

    /** Base64 (RFC 4648), surrounding white space ignored. */
    public static Psbt fromBase64(String text) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new PsbtFormatException("not Base64: " + e.getMessage(), 0);
        }
        return decode(bytes);
    }

    /** A PSBT file, binary (BIP 174's {@code .psbt}) or Base64 text, as other wallets write either. */
    public static Psbt read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length >= 5 && java.util.Arrays.equals(java.util.Arrays.copyOf(bytes, 5), PsbtDecoder.MAGIC)) {
            return decode(bytes);
        }
        return fromBase64(new String(bytes, StandardCharsets.US_ASCII));
    }

    /** The binary encoding (BIP 174's {@code .psbt} file format). */
    public byte[] serialize() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(PsbtDecoder.MAGIC);
        global.write(out);
        inputs.forEach(m -> m.write(out));
        outputs.forEach(m -> m.write(out));
        return out.toByteArray();
    }

    /** The binary encoding in Base64, as wallets and RPCs exchange PSBTs as text. */
    public String toBase64() {
        return Base64.getEncoder().encodeToString(serialize());
    }

    /** A fresh copy of the unsigned transaction. */
    public Transaction unsignedTx() {
        return PsbtValues.unsignedTx(unsignedTx, 0);
    }

    /** The global map (unsigned transaction, xpubs, version). */
    public PsbtMap global() {
        return global;
    }

    /** The input maps, one per input of the unsigned transaction, in order. */
    public List<PsbtMap> inputs() {
        return inputs;
    }

    /** The output maps, one per output of the unsigned transaction, in order. */
    public List<PsbtMap> outputs() {
        return outputs;
    }

    /** The map of input {@code i}. */
    public PsbtMap input(int i) {
        return inputs.get(i);
    }

    /** The map of output {@code i}. */
    public PsbtMap output(int i) {
        return outputs.get(i);
    }

    /** A copy with input {@code i}'s map replaced. */
    public Psbt withInput(int i, PsbtMap m) {
        List<PsbtMap> next = new ArrayList<>(inputs);
        next.set(i, m);
        return new Psbt(global, unsignedTx(), next, outputs);
    }

    /** A copy with output {@code i}'s map replaced. */
    public Psbt withOutput(int i, PsbtMap m) {
        List<PsbtMap> next = new ArrayList<>(outputs);
        next.set(i, m);
        return new Psbt(global, unsignedTx(), inputs, next);
    }

    /**
     * The output input {@code i} spends, from its witness UTXO or its full previous transaction;
     * empty when the PSBT carries neither.
     */
    public Optional<TransactionOutput> spentOutput(int i) {
        PsbtMap m = inputs.get(i);
        Optional<byte[]> w = m.get(PsbtField.IN_WITNESS_UTXO.type());
        if (w.isPresent()) {
            ByteBuffer b = ByteBuffer.wrap(w.get());
            long value = b.order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            byte[] script = new byte[org.bitcoinj.base.VarInt.read(b).intValue()];
            b.get(script);
            return Optional.of(new TransactionOutput(null, Coin.valueOf(value), script));
        }
        return m.get(PsbtField.IN_NON_WITNESS_UTXO.type()).map(raw -> {
            Transaction prev = Transaction.read(ByteBuffer.wrap(raw));
            return prev.getOutput(unsignedTx().getInput(i).getOutpoint().index());
        });
    }

    /** Total of the spent outputs minus the outputs, when every input's UTXO is known. */
    public Optional<Coin> fee() {
        Coin in = Coin.ZERO;
        for (int i = 0; i < inputs.size(); i++) {
            Optional<TransactionOutput> o = spentOutput(i);
            if (o.isEmpty()) {
                return Optional.empty();
            }
            in = in.add(o.get().getValue());
        }
        Coin out = unsignedTx().getOutputs().stream()
                .map(TransactionOutput::getValue)
                .reduce(Coin.ZERO, Coin::add);
        return Optional.of(in.subtract(out));
    }

    /**
     * BIP 174's Combiner: every record of both, for the same unsigned transaction (anything else is
     * refused, naming both transactions).
     */
    public Psbt combine(Psbt other) {
        if (!java.util.Arrays.equals(unsignedTx, other.unsignedTx)) {
            throw new IllegalArgumentException("cannot combine PSBTs of different transactions: "
                    + unsignedTx().getTxId() + " and " + other.unsignedTx().getTxId());
        }
        List<PsbtMap> ins = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            ins.add(inputs.get(i).merge(other.inputs.get(i)));
        }
        List<PsbtMap> outs = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            outs.add(outputs.get(i).merge(other.outputs.get(i)));
        }
        return new Psbt(global.merge(other.global), unsignedTx(), ins, outs);
    }

    /** Whether input {@code i} has a final scriptSig or witness. */
    public boolean isFinalized(int i) {
        PsbtMap m = inputs.get(i);
        return m.has(PsbtField.IN_FINAL_SCRIPTSIG.type()) || m.has(PsbtField.IN_FINAL_SCRIPTWITNESS.type());
    }

    /** BIP 174's Transaction Extractor: the network transaction, once every input is finalized. */
    public Transaction extract() {
        Transaction tx = unsignedTx();
        for (int i = 0; i < inputs.size(); i++) {
            if (!isFinalized(i)) {
                throw new IllegalStateException(
                        "input " + i + " is not finalized: run finalize once it has enough signatures");
            }
            PsbtMap m = inputs.get(i);
            TransactionInput in = tx.getInput(i);
            byte[] sig = m.get(PsbtField.IN_FINAL_SCRIPTSIG.type()).orElse(new byte[0]);
            in = in.withScriptBytes(sig);
            Optional<byte[]> w = m.get(PsbtField.IN_FINAL_SCRIPTWITNESS.type());
            if (w.isPresent()) {
                in = in.withWitness(TransactionWitness.read(ByteBuffer.wrap(w.get())));
            }
            tx.replaceInput(i, in);
        }
        return tx;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Psbt p && java.util.Arrays.equals(serialize(), p.serialize());
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(serialize());
    }
}
