package org.blockfilter.wallet.psbt;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.wallet.psbt.PsbtField.Scope;

/**
 * Reads the BIP 174 binary format strictly: magic, the global map, one map per input and output
 * of the unsigned transaction, nothing after. Within a map every key is unique, every compact size
 * minimally encoded and every field of BIP 174/371 checked ({@link PsbtValues}); a failure is a
 * {@link PsbtFormatException} naming the map, the field and the byte offset. Stateless; thread-safe.
 */
public final class PsbtDecoder {
    /** {@code 0x70 0x73 0x62 0x74 0xff}: "psbt" and the separator. */
    static final byte[] MAGIC = {0x70, 0x73, 0x62, 0x74, (byte) 0xff};

    private PsbtDecoder() {}

    /**
     * Decodes a binary PSBT: magic, global map, one map per input and output of the unsigned transaction, nothing
     * after. Throws {@link PsbtFormatException} on any rule broken.
     */
    public static Psbt decode(byte[] bytes) {
        PsbtCursor in = new PsbtCursor(bytes);
        for (byte b : MAGIC) {
            if (in.remaining() == 0 || in.u8("magic") != (b & 0xff)) {
                throw new PsbtFormatException(
                        "not a PSBT: it must start with the magic bytes 70736274ff (\"psbt\" 0xff)", 0);
            }
        }
        PsbtMap global = readMap(in, Scope.GLOBAL, -1);
        byte[] rawTx = global.get(PsbtField.GLOBAL_UNSIGNED_TX.type())
                .orElseThrow(() -> new PsbtFormatException(
                        "global map has no " + PsbtField.GLOBAL_UNSIGNED_TX.spec()
                                + ", which a version 0 PSBT must have",
                        in.position()));
        Transaction tx = PsbtValues.unsignedTx(rawTx, in.globalTxOffset);
        List<PsbtMap> inputs = new ArrayList<>();
        for (int i = 0; i < tx.getInputs().size(); i++) {
            requireMap(in, "input", i, tx.getInputs().size());
            int start = in.position();
            PsbtMap m = readMap(in, Scope.INPUT, i);
            checkUtxo(m, tx, i, start);
            inputs.add(m);
        }
        List<PsbtMap> outputs = new ArrayList<>();
        for (int i = 0; i < tx.getOutputs().size(); i++) {
            requireMap(in, "output", i, tx.getOutputs().size());
            outputs.add(readMap(in, Scope.OUTPUT, i));
        }
        if (in.remaining() > 0) {
            throw new PsbtFormatException(
                    in.remaining() + " byte(s) after the last map (the unsigned transaction has " + inputs.size()
                            + " input(s) and " + outputs.size() + " output(s))",
                    in.position());
        }
        return Psbt.of(global, tx, inputs, outputs);
    }

    private static void requireMap(PsbtCursor in, String what, int i, int count) {
        if (in.remaining() == 0) {
            throw new PsbtFormatException(
                    "the unsigned transaction has " + count + " " + what + "(s) but the PSBT ends before " + what
                            + " map " + i,
                    in.position());
        }
    }

    /** BIP 174's Signer check, done on decode as Core does: the full previous transaction must be the one spent. */
    private static void checkUtxo(PsbtMap m, Transaction tx, int i, int offset) {
        byte[] raw = m.get(PsbtField.IN_NON_WITNESS_UTXO.type()).orElse(null);
        if (raw == null) {
            return;
        }
        Transaction prev =
                PsbtValues.transaction(raw, "input " + i + " " + PsbtField.IN_NON_WITNESS_UTXO.spec(), offset);
        Sha256Hash spent = tx.getInput(i).getOutpoint().hash();
        if (!prev.getTxId().equals(spent)) {
            throw new PsbtFormatException(
                    "input " + i + ": " + PsbtField.IN_NON_WITNESS_UTXO.spec() + " is transaction " + prev.getTxId()
                            + " but the input spends " + spent,
                    offset);
        }
        long index = tx.getInput(i).getOutpoint().index();
        if (index >= prev.getOutputs().size()) {
            throw new PsbtFormatException(
                    "input " + i + " spends output " + index + " of a transaction with "
                            + prev.getOutputs().size() + " output(s)",
                    offset);
        }
    }

    private static PsbtMap readMap(PsbtCursor in, Scope scope, int index) {
        String where = scope == Scope.GLOBAL ? "global map" : scope.name().toLowerCase() + " " + index;
        List<PsbtMap.Entry> entries = new ArrayList<>();
        while (true) {
            if (in.remaining() == 0) {
                throw new PsbtFormatException(where + " is not terminated by 0x00", in.position());
            }
            int keyStart = in.position();
            long keyLen = in.compactSize(where + " key length");
            if (keyLen == 0) {
                return PsbtMap.of(entries);
            }
            int keyEnd = in.position() + in.checkLength(keyLen, where + " key");
            long type = in.compactSize(where + " key type");
            if (in.position() > keyEnd) {
                throw new PsbtFormatException(where + ": key type runs past the key's length " + keyLen, keyStart);
            }
            byte[] keyData = in.bytes(keyEnd - in.position(), where + " key data");
            int valueStart = in.position();
            long valueLen = in.compactSize(where + " value length");
            if (scope == Scope.GLOBAL && type == PsbtField.GLOBAL_UNSIGNED_TX.type()) {
                in.globalTxOffset = in.position();
            }
            byte[] value = in.bytes(in.checkLength(valueLen, where + " value"), where + " value");
            PsbtMap.Entry e = new PsbtMap.Entry(type, keyData, value);
            if (entries.stream().anyMatch(x -> x.sameKey(type, keyData))) {
                throw new PsbtFormatException(
                        where + ": duplicate key "
                                + PsbtField.of(scope, type)
                                        .map(PsbtField::spec)
                                        .orElse("type 0x" + Long.toHexString(type)),
                        keyStart);
            }
            PsbtField.of(scope, type).ifPresent(f -> PsbtValues.check(f, where, keyData, value, keyStart, valueStart));
            entries.add(e);
        }
    }
}
