package org.blockfilter.regtest.embedded.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;

/**
 * Transactions accepted but not yet mined, in arrival order (so parents come before children),
 * with the outpoints they spend for conflict detection. Not thread-safe: {@link Chain} guards it
 * with its lock. Validation is the caller's job.
 */
final class Mempool {
    /** A mempool transaction with its fee (satoshis) and the time it arrived (epoch seconds). */
    record Entry(Transaction tx, long fee, long time, int height) {}

    private final LinkedHashMap<Sha256Hash, Entry> entries = new LinkedHashMap<>();
    private final Map<OutPoint, Sha256Hash> spentBy = new HashMap<>();

    boolean contains(Sha256Hash txid) {
        return entries.containsKey(txid);
    }

    Entry get(Sha256Hash txid) {
        return entries.get(txid);
    }

    /** The mempool transaction that spends {@code outpoint}, or null. */
    Sha256Hash spender(OutPoint outpoint) {
        return spentBy.get(outpoint);
    }

    /** An output created by a mempool transaction, as an unconfirmed UTXO, or null. */
    UtxoEntry output(OutPoint outpoint, int nextHeight) {
        Entry e = entries.get(outpoint.txid());
        if (e == null || outpoint.index() >= e.tx().getOutputs().size()) {
            return null;
        }
        TransactionOutput out = e.tx().getOutput(outpoint.index());
        return new UtxoEntry(out.getValue().value, out.getScriptBytes(), nextHeight, false);
    }

    void add(Transaction tx, long fee, long time, int height) {
        Sha256Hash txid = tx.getTxId();
        entries.put(txid, new Entry(tx, fee, time, height));
        for (TransactionInput in : tx.getInputs()) {
            spentBy.put(OutPoint.of(in.getOutpoint()), txid);
        }
    }

    /** Empties the pool and returns what it held, in arrival order. */
    List<Entry> drain() {
        List<Entry> all = new ArrayList<>(entries.values());
        entries.clear();
        spentBy.clear();
        return all;
    }

    List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    int size() {
        return entries.size();
    }
}
