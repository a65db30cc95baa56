package org.blockfilter.wallet.ledger;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * The wallet's transactions keyed by txid. A transaction is the wallet's when it pays one of the
 * wallet's scripts or spends one of the wallet's outputs. UTXOs, balance and history are derived
 * from the transactions on each call.
 *
 * <p>Mutable; not thread-safe. No method returns null.
 */
public final class Ledger {
    private final Map<Sha256Hash, WalletTx> txs = new LinkedHashMap<>();
    private final Map<Sha256Hash, Transaction> parsed = new HashMap<>();
    private final Predicate<OutputScript> isMine;

    public Ledger(Predicate<OutputScript> isMine) {
        this.isMine = isMine;
    }

    public List<WalletTx> transactions() {
        List<WalletTx> out = new ArrayList<>(txs.values());
        out.sort(Comparator.comparingInt((WalletTx t) -> t.pending() ? Integer.MAX_VALUE : t.height()));
        return out;
    }

    public Optional<WalletTx> get(Sha256Hash txid) {
        return Optional.ofNullable(txs.get(txid));
    }

    /** True when {@code tx} pays the wallet or spends one of its outputs. */
    public boolean isRelevant(Transaction tx) {
        for (TransactionOutput out : tx.getOutputs()) {
            if (isMine.test(OutputScript.of(out.getScriptBytes()))) {
                return true;
            }
        }
        if (!tx.isCoinBase()) {
            for (TransactionInput in : tx.getInputs()) {
                if (ownedOutput(in.getOutpoint()).isPresent()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Adds or confirms a transaction; idempotent. A pending transaction seen in a block becomes
     * confirmed; a confirmed one is moved when seen at another height (a reorg).
     */
    public void put(WalletTx tx) {
        txs.put(tx.txid(), tx);
        parsed.remove(tx.txid());
    }

    /** Forgets a transaction (a pending one the network rejected). */
    public void remove(Sha256Hash txid) {
        txs.remove(txid);
        parsed.remove(txid);
    }

    private Transaction parsed(WalletTx t) {
        return parsed.computeIfAbsent(t.txid(), k -> t.tx());
    }

    /** Drops the transactions confirmed above {@code height} (their blocks left the best chain). Returns how many. */
    public int rollbackAbove(int height) {
        int before = txs.size();
        txs.values().removeIf(t -> !t.pending() && t.height() > height);
        parsed.keySet().retainAll(txs.keySet());
        return before - txs.size();
    }

    /** The output at {@code outpoint} if it is one of the wallet's. */
    public Optional<TransactionOutput> ownedOutput(TransactionOutPoint outpoint) {
        WalletTx t = txs.get(outpoint.hash());
        if (t == null) {
            return Optional.empty();
        }
        Transaction tx = parsed(t);
        if (outpoint.index() >= tx.getOutputs().size()) {
            return Optional.empty();
        }
        TransactionOutput out = tx.getOutput(outpoint.index());
        return isMine.test(OutputScript.of(out.getScriptBytes())) ? Optional.of(out) : Optional.empty();
    }

    /** Unspent outputs; with {@code confirmedOnly}, pending transactions neither add nor spend. */
    public List<Utxo> utxos(boolean confirmedOnly) {
        Set<TransactionOutPoint> spent = new HashSet<>();
        List<Transaction> parsedTxs = new ArrayList<>();
        List<WalletTx> considered = new ArrayList<>();
        for (WalletTx t : transactions()) {
            if (confirmedOnly && t.pending()) {
                continue;
            }
            Transaction tx = parsed(t);
            parsedTxs.add(tx);
            considered.add(t);
            if (!tx.isCoinBase()) {
                for (TransactionInput in : tx.getInputs()) {
                    spent.add(in.getOutpoint());
                }
            }
        }
        List<Utxo> out = new ArrayList<>();
        for (int i = 0; i < parsedTxs.size(); i++) {
            Transaction tx = parsedTxs.get(i);
            for (TransactionOutput o : tx.getOutputs()) {
                OutputScript script = OutputScript.of(o.getScriptBytes());
                TransactionOutPoint op = new TransactionOutPoint(o.getIndex(), tx.getTxId());
                if (isMine.test(script) && !spent.contains(op)) {
                    out.add(new Utxo(op, o.getValue(), script, considered.get(i).height(), tx.isCoinBase()));
                }
            }
        }
        return out;
    }

    /** Every unspent output, including immature coinbases; see {@link #spendableBalance} and {@link #immatureBalance}. */
    public Coin balance(boolean confirmedOnly) {
        return utxos(confirmedOnly).stream().map(Utxo::value).reduce(Coin.ZERO, Coin::add);
    }

    /** Confirmed outputs that can be spent in the next block after {@code tipHeight} (immature coinbases excluded). */
    public Coin spendableBalance(int tipHeight) {
        return utxos(true).stream()
                .filter(u -> u.matureAt(tipHeight))
                .map(Utxo::value)
                .reduce(Coin.ZERO, Coin::add);
    }

    /** Coinbase outputs that do not yet have {@link Utxo#COINBASE_MATURITY} confirmations at {@code tipHeight}. */
    public Coin immatureBalance(int tipHeight) {
        return utxos(true).stream()
                .filter(u -> !u.matureAt(tipHeight))
                .map(Utxo::value)
                .reduce(Coin.ZERO, Coin::add);
    }

    public List<HistoryEntry> history() {
        Map<TransactionOutPoint, Coin> mine = new HashMap<>();
        List<WalletTx> all = transactions();
        List<Transaction> parsedTxs = new ArrayList<>();
        for (WalletTx t : all) {
            Transaction tx = parsed(t);
            parsedTxs.add(tx);
            for (TransactionOutput o : tx.getOutputs()) {
                if (isMine.test(OutputScript.of(o.getScriptBytes()))) {
                    mine.put(new TransactionOutPoint(o.getIndex(), tx.getTxId()), o.getValue());
                }
            }
        }
        List<HistoryEntry> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Transaction tx = parsedTxs.get(i);
            Coin received = Coin.ZERO;
            for (TransactionOutput o : tx.getOutputs()) {
                if (isMine.test(OutputScript.of(o.getScriptBytes()))) {
                    received = received.add(o.getValue());
                }
            }
            Coin sent = Coin.ZERO;
            boolean allInputsMine = !tx.isCoinBase();
            if (!tx.isCoinBase()) {
                for (TransactionInput in : tx.getInputs()) {
                    Coin v = mine.get(in.getOutpoint());
                    if (v == null) {
                        allInputsMine = false;
                    } else {
                        sent = sent.add(v);
                    }
                }
            }
            Coin fee = allInputsMine ? sent.subtract(tx.getOutputSum()) : null;
            out.add(new HistoryEntry(tx.getTxId(), all.get(i).height(), received, sent, received.subtract(sent), fee));
        }
        return out;
    }
}
