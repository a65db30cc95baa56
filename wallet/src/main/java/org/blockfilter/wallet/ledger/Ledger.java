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
 * from the transactions on each call, and so is the state of every pending payment ({@link
 * PendingStatus}): only a {@link PendingStatus.Kind#VALID} one adds its outputs, so a payment
 * whose inputs left the chain, or that was replaced or double-spent, never shows as balance.
 *
 * <p>Mutable; not thread-safe. No method returns null.
 */
public final class Ledger {
    private final Map<Sha256Hash, WalletTx> txs = new LinkedHashMap<>();
    private final Map<Sha256Hash, Transaction> parsed = new HashMap<>();
    private final Predicate<OutputScript> isMine;

    /** An empty ledger that counts an output as the wallet's when {@code isMine} accepts its script. */
    public Ledger(Predicate<OutputScript> isMine) {
        this.isMine = isMine;
    }

    /** The wallet's transactions, confirmed ones by height, then the pending ones. */
    public List<WalletTx> transactions() {
        List<WalletTx> out = new ArrayList<>(txs.values());
        out.sort(Comparator.comparingInt((WalletTx t) -> t.pending() ? Integer.MAX_VALUE : t.height()));
        return out;
    }

    /** The wallet's transaction with this txid, if it has one. */
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
     * confirmed; a confirmed one is moved when seen at another height (a reorg). A confirmed
     * transaction removes the pending ones that spend any of its inputs: they were replaced or
     * double-spent and can no longer confirm.
     */
    public void put(WalletTx tx) {
        txs.put(tx.txid(), tx);
        parsed.remove(tx.txid());
        if (!tx.pending()) {
            Set<TransactionOutPoint> spent = inputsOf(parsed(tx));
            List<Sha256Hash> conflicting = new ArrayList<>();
            for (WalletTx t : txs.values()) {
                if (t.pending()
                        && !t.txid().equals(tx.txid())
                        && inputsOf(parsed(t)).stream().anyMatch(spent::contains)) {
                    conflicting.add(t.txid());
                }
            }
            conflicting.forEach(this::remove);
        }
    }

    /** Forgets a transaction (a pending one the network rejected). */
    public void remove(Sha256Hash txid) {
        txs.remove(txid);
        parsed.remove(txid);
    }

    /**
     * Forgets a pending payment and the pending ones that spend its outputs, releasing their
     * coins; returns their txids (the abandoned one first). Should the payment confirm after all,
     * the sync that sees its block records it again (it spends the wallet's coins).
     *
     * @throws IllegalArgumentException when {@code txid} is not one of the wallet's pending payments
     */
    public List<Sha256Hash> abandon(Sha256Hash txid) {
        WalletTx t = txs.get(txid);
        if (t == null) {
            throw new IllegalArgumentException("transaction " + txid + " is not in this wallet");
        }
        if (!t.pending()) {
            throw new IllegalArgumentException("transaction " + txid + " is confirmed at height " + t.height()
                    + "; only a pending payment can be abandoned");
        }
        List<Sha256Hash> gone = new ArrayList<>(List.of(txid));
        for (int i = 0; i < gone.size(); i++) {
            Sha256Hash parent = gone.get(i);
            for (WalletTx c : txs.values()) {
                if (c.pending()
                        && !gone.contains(c.txid())
                        && inputsOf(parsed(c)).stream().anyMatch(op -> op.hash().equals(parent))) {
                    gone.add(c.txid());
                }
            }
        }
        gone.forEach(this::remove);
        return gone;
    }

    private Transaction parsed(WalletTx t) {
        return parsed.computeIfAbsent(t.txid(), k -> t.tx());
    }

    private static Set<TransactionOutPoint> inputsOf(Transaction tx) {
        Set<TransactionOutPoint> out = new HashSet<>();
        if (!tx.isCoinBase()) {
            for (TransactionInput in : tx.getInputs()) {
                out.add(in.getOutpoint());
            }
        }
        return out;
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

    /** The state of every pending payment, in the ledger's order. */
    public List<PendingStatus> pendingStatuses() {
        return List.copyOf(statuses().values());
    }

    /** The state of one pending payment; empty when {@code txid} is not pending in this wallet. */
    public Optional<PendingStatus> pendingStatus(Sha256Hash txid) {
        return Optional.ofNullable(statuses().get(txid));
    }

    /**
     * Derives each pending payment's state. A payment is REPLACED when another pending one spends
     * a coin it spends and pays a higher fee (ties: the lower txid is kept), INPUTS_GONE when an
     * input's transaction is not in the ledger or is itself a pending payment that cannot
     * confirm, CONFLICTED when a confirmed transaction spends one of its inputs.
     */
    private Map<Sha256Hash, PendingStatus> statuses() {
        Map<TransactionOutPoint, Sha256Hash> confirmedSpends = new HashMap<>();
        List<WalletTx> pending = new ArrayList<>();
        for (WalletTx t : transactions()) {
            if (t.pending()) {
                pending.add(t);
            } else {
                for (TransactionOutPoint op : inputsOf(parsed(t))) {
                    confirmedSpends.put(op, t.txid());
                }
            }
        }
        Map<Sha256Hash, PendingStatus> out = new LinkedHashMap<>();
        Map<Sha256Hash, Long> fees = new HashMap<>();
        for (WalletTx t : pending) {
            out.put(t.txid(), PendingStatus.valid(t.txid()));
            fees.put(t.txid(), knownFee(parsed(t)));
        }
        for (WalletTx t : pending) {
            for (TransactionOutPoint op : inputsOf(parsed(t))) {
                Sha256Hash spender = confirmedSpends.get(op);
                if (spender != null) {
                    out.put(t.txid(), new PendingStatus(t.txid(), PendingStatus.Kind.CONFLICTED, op, spender));
                    break;
                }
            }
        }
        for (WalletTx a : pending) {
            if (out.get(a.txid()).kind() != PendingStatus.Kind.VALID) {
                continue;
            }
            for (WalletTx b : pending) {
                if (a == b || out.get(b.txid()).kind() == PendingStatus.Kind.CONFLICTED) {
                    continue;
                }
                Set<TransactionOutPoint> shared = inputsOf(parsed(a));
                shared.retainAll(inputsOf(parsed(b)));
                if (!shared.isEmpty() && beats(b, a, fees)) {
                    out.put(
                            a.txid(),
                            new PendingStatus(
                                    a.txid(),
                                    PendingStatus.Kind.REPLACED,
                                    shared.iterator().next(),
                                    b.txid()));
                    break;
                }
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (WalletTx t : pending) {
                if (out.get(t.txid()).kind() != PendingStatus.Kind.VALID) {
                    continue;
                }
                for (TransactionOutPoint op : inputsOf(parsed(t))) {
                    WalletTx parent = txs.get(op.hash());
                    boolean gone = parent == null
                            || op.index() >= parsed(parent).getOutputs().size()
                            || (parent.pending() && out.get(parent.txid()).kind() != PendingStatus.Kind.VALID);
                    if (gone) {
                        out.put(t.txid(), new PendingStatus(t.txid(), PendingStatus.Kind.INPUTS_GONE, op, null));
                        changed = true;
                        break;
                    }
                }
            }
        }
        return out;
    }

    private static boolean beats(WalletTx b, WalletTx a, Map<Sha256Hash, Long> fees) {
        long fa = fees.get(a.txid());
        long fb = fees.get(b.txid());
        return fb > fa || (fb == fa && b.txid().compareTo(a.txid()) < 0);
    }

    /** Inputs the ledger knows minus outputs: the fee when every input is known, a lower bound otherwise. */
    private long knownFee(Transaction tx) {
        long in = 0;
        for (TransactionOutPoint op : inputsOf(tx)) {
            WalletTx parent = txs.get(op.hash());
            if (parent != null && op.index() < parsed(parent).getOutputs().size()) {
                in += parsed(parent).getOutput(op.index()).getValue().value;
            }
        }
        return in - tx.getOutputSum().value;
    }

    /**
     * Unspent outputs. With {@code confirmedOnly}, pending transactions neither add nor spend;
     * otherwise a valid pending payment adds its outputs, and every pending payment but a
     * conflicted one holds its inputs.
     */
    public List<Utxo> utxos(boolean confirmedOnly) {
        return utxos(confirmedOnly, confirmedOnly ? Map.of() : statuses());
    }

    private List<Utxo> utxos(boolean confirmedOnly, Map<Sha256Hash, PendingStatus> status) {
        Set<TransactionOutPoint> spent = new HashSet<>();
        List<WalletTx> adding = new ArrayList<>();
        for (WalletTx t : transactions()) {
            if (t.pending() && (confirmedOnly || !status.get(t.txid()).locksInputs())) {
                continue;
            }
            spent.addAll(inputsOf(parsed(t)));
            if (!t.pending() || status.get(t.txid()).kind() == PendingStatus.Kind.VALID) {
                adding.add(t);
            }
        }
        List<Utxo> out = new ArrayList<>();
        for (WalletTx t : adding) {
            Transaction tx = parsed(t);
            // By position: TransactionOutput.getIndex() searches the output list, quadratic in a transaction
            // that pays thousands of outputs (a batch payout holding one of ours).
            List<TransactionOutput> outputs = tx.getOutputs();
            Sha256Hash txid = null;
            for (int i = 0; i < outputs.size(); i++) {
                TransactionOutput o = outputs.get(i);
                OutputScript script = OutputScript.of(o.getScriptBytes());
                if (!isMine.test(script)) {
                    continue;
                }
                txid = txid == null ? tx.getTxId() : txid;
                TransactionOutPoint op = new TransactionOutPoint(i, txid);
                if (!spent.contains(op)) {
                    out.add(new Utxo(op, o.getValue(), script, t.height(), tx.isCoinBase()));
                }
            }
        }
        return out;
    }

    /**
     * The coins a new payment may spend when the best chain ends at {@code tipHeight}: confirmed,
     * mature, and not held by a pending payment. {@link #balance(int)}'s spendable figure is their sum.
     */
    public List<Utxo> spendable(int tipHeight) {
        return utxos(false).stream()
                .filter(u -> u.height() >= 0 && u.matureAt(tipHeight))
                .toList();
    }

    /** The balance split into spendable, locked by pending payments, immature and unconfirmed, at {@code tipHeight}. */
    public Balance balance(int tipHeight) {
        Map<Sha256Hash, PendingStatus> status = statuses();
        List<Utxo> all = utxos(false, status);
        Coin spendable = Coin.ZERO;
        Coin immature = Coin.ZERO;
        Coin unconfirmed = Coin.ZERO;
        Set<TransactionOutPoint> unspent = new HashSet<>();
        for (Utxo u : all) {
            unspent.add(u.outpoint());
            if (u.height() < 0) {
                unconfirmed = unconfirmed.add(u.value());
            } else if (u.matureAt(tipHeight)) {
                spendable = spendable.add(u.value());
            } else {
                immature = immature.add(u.value());
            }
        }
        Coin locked = Coin.ZERO;
        for (Utxo u : utxos(true)) {
            if (!unspent.contains(u.outpoint())) {
                locked = locked.add(u.value());
            }
        }
        List<PendingStatus> stuck = status.values().stream()
                .filter(s -> s.kind() != PendingStatus.Kind.VALID)
                .toList();
        return new Balance(spendable, locked, immature, unconfirmed, stuck);
    }

    /** Every unspent output, including immature coinbases; see {@link #balance(int)}. */
    public Coin balance(boolean confirmedOnly) {
        return utxos(confirmedOnly).stream().map(Utxo::value).reduce(Coin.ZERO, Coin::add);
    }

    /** The sum of {@link #spendable(int)}: what a new payment can spend. */
    public Coin spendableBalance(int tipHeight) {
        return balance(tipHeight).spendable();
    }

    /** Coinbase outputs that do not yet have {@link Utxo#COINBASE_MATURITY} confirmations at {@code tipHeight}. */
    public Coin immatureBalance(int tipHeight) {
        return balance(tipHeight).immature();
    }

    /** Every transaction as the user sees it: what it received and spent, and its fee when known, oldest first. */
    public List<HistoryEntry> history() {
        Map<Sha256Hash, PendingStatus> status = statuses();
        Map<TransactionOutPoint, Coin> mine = new HashMap<>();
        List<WalletTx> all = transactions();
        for (WalletTx t : all) {
            Transaction tx = parsed(t);
            for (TransactionOutput o : tx.getOutputs()) {
                if (isMine.test(OutputScript.of(o.getScriptBytes()))) {
                    mine.put(new TransactionOutPoint(o.getIndex(), tx.getTxId()), o.getValue());
                }
            }
        }
        List<HistoryEntry> out = new ArrayList<>();
        for (WalletTx t : all) {
            Transaction tx = parsed(t);
            PendingStatus s = status.get(t.txid());
            if (s != null && s.kind() != PendingStatus.Kind.VALID) {
                out.add(new HistoryEntry(tx.getTxId(), t.height(), Coin.ZERO, Coin.ZERO, Coin.ZERO, null, s));
                continue;
            }
            Coin received = Coin.ZERO;
            for (TransactionOutput o : tx.getOutputs()) {
                if (isMine.test(OutputScript.of(o.getScriptBytes()))) {
                    received = received.add(o.getValue());
                }
            }
            Coin sent = Coin.ZERO;
            boolean allInputsMine = !tx.isCoinBase();
            for (TransactionOutPoint op : inputsOf(tx)) {
                Coin v = mine.get(op);
                if (v == null) {
                    allInputsMine = false;
                } else {
                    sent = sent.add(v);
                }
            }
            Coin fee = allInputsMine ? sent.subtract(tx.getOutputSum()) : null;
            out.add(new HistoryEntry(tx.getTxId(), t.height(), received, sent, received.subtract(sent), fee, s));
        }
        return out;
    }
}
