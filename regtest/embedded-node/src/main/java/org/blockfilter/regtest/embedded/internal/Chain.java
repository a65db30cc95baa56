package org.blockfilter.regtest.embedded.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.params.RegTestParams;
import org.bitcoinj.script.ScriptException;
import org.bitcoinj.script.ScriptOpCodes;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * The embedded node's state and rules: every block it has seen (by hash, best chain chosen by
 * most work, first seen wins ties), the UTXO set of the best chain with undo data per connected
 * block, a transaction index of the best chain, and the mempool. Mining, transaction and block
 * acceptance, and reorgs all go through here.
 *
 * <p>Thread-safe: every public method holds this object's monitor, and callers that need several
 * calls to see one state may synchronize on it too. In memory only.
 */
public final class Chain {
    public static final NetworkParameters PARAMS = RegTestParams.get();
    private static final int SCRIPT_CACHE_SIZE = 100_000;

    /** A spent output and where it was, kept to undo a block. */
    private record Spent(OutPoint outpoint, UtxoEntry utxo) {}

    /** The result of submitting a block, with Bitcoin Core's {@code submitblock} vocabulary. */
    public enum BlockStatus {
        /** The block is valid and on the best chain (submitblock returns null). */
        ACCEPTED,
        /** Known already. */
        DUPLICATE,
        /** Known and invalid. */
        DUPLICATE_INVALID,
        /** Valid so far and stored, but on a branch with less work, so not connected. */
        INCONCLUSIVE
    }

    private final Clock clock;
    private final Map<Sha256Hash, BlockEntry> blocks = new HashMap<>();
    private final List<BlockEntry> active = new ArrayList<>();
    private final Map<OutPoint, UtxoEntry> utxos = new HashMap<>();
    private final Map<Sha256Hash, List<Spent>> undo = new HashMap<>();
    private final Map<Sha256Hash, BlockEntry> txIndex = new HashMap<>();
    private final Mempool mempool = new Mempool();
    private final Set<Sha256Hash> scriptsVerified = new HashSet<>();
    private long sequence;
    private long extraNonce;

    public Chain(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        Block genesis = PARAMS.getGenesisBlock();
        BlockEntry entry = new BlockEntry(genesis, genesis.serialize(), null, sequence++);
        blocks.put(entry.hash(), entry);
        // As in Bitcoin Core, the genesis coinbase is not added to the UTXO set.
        active.add(entry);
        undo.put(entry.hash(), List.of());
    }

    public synchronized BlockEntry tip() {
        return active.get(active.size() - 1);
    }

    public synchronized int height() {
        return active.size() - 1;
    }

    /** The best-chain block at {@code height}, or empty. */
    public synchronized Optional<BlockEntry> atHeight(int height) {
        return height < 0 || height >= active.size() ? Optional.empty() : Optional.of(active.get(height));
    }

    public synchronized Optional<BlockEntry> block(Sha256Hash hash) {
        return Optional.ofNullable(blocks.get(hash));
    }

    public synchronized boolean onBestChain(BlockEntry e) {
        return e.height() < active.size() && active.get(e.height()) == e;
    }

    /** The best-chain block that confirmed {@code txid}, or empty. */
    public synchronized Optional<BlockEntry> confirmingBlock(Sha256Hash txid) {
        return Optional.ofNullable(txIndex.get(txid));
    }

    public synchronized Optional<UtxoEntry> utxo(OutPoint outpoint) {
        return Optional.ofNullable(utxos.get(outpoint));
    }

    /** A copy of the UTXO set, for tests and tools. */
    public synchronized Map<OutPoint, UtxoEntry> utxoSnapshot() {
        return new HashMap<>(utxos);
    }

    public synchronized List<Transaction> mempoolTransactions() {
        return mempool.entries().stream().map(Mempool.Entry::tx).toList();
    }

    synchronized Mempool.Entry mempoolEntry(Sha256Hash txid) {
        return mempool.get(txid);
    }

    /** Fee in satoshis of a mempool transaction, or empty. */
    public synchronized Optional<Long> mempoolFee(Sha256Hash txid) {
        return Optional.ofNullable(mempool.get(txid)).map(Mempool.Entry::fee);
    }

    /** Arrival time (epoch seconds) of a mempool transaction, or empty. */
    public synchronized Optional<Long> mempoolTime(Sha256Hash txid) {
        return Optional.ofNullable(mempool.get(txid)).map(Mempool.Entry::time);
    }

    public synchronized Optional<Transaction> mempoolTransaction(Sha256Hash txid) {
        return Optional.ofNullable(mempool.get(txid)).map(Mempool.Entry::tx);
    }

    /** Every stored block, best chain or not, in arrival order. */
    public synchronized List<BlockEntry> allBlocks() {
        List<BlockEntry> all = new ArrayList<>(blocks.values());
        all.sort(Comparator.comparingLong(BlockEntry::sequence));
        return all;
    }

    /** Median of the timestamps of {@code e} and its ten predecessors (BIP 113). */
    public static long medianTimePast(BlockEntry e) {
        List<Long> times = new ArrayList<>(Consensus.MEDIAN_TIME_SPAN);
        for (BlockEntry b = e; b != null && times.size() < Consensus.MEDIAN_TIME_SPAN; b = b.prev()) {
            times.add(b.block().getTimeSeconds());
        }
        Collections.sort(times);
        return times.get(times.size() / 2);
    }

    // ---------------------------------------------------------------- transactions

    /**
     * Validates {@code tx} against the best chain and the mempool and adds it to the mempool.
     * A transaction already in the mempool is accepted again without change.
     *
     * @return its txid
     * @throws RejectedException with Core's reason and RPC code if it breaks a rule
     */
    public synchronized Sha256Hash acceptToMempool(Transaction tx) {
        Sha256Hash txid = tx.getTxId();
        if (mempool.contains(txid)) {
            return txid;
        }
        if (tx.isCoinBase()) {
            throw new RejectedException("coinbase", RejectedException.VERIFY_REJECTED);
        }
        BlockChecks.checkTransactionSanity(tx);
        DustPolicy.check(tx);
        for (int i = 0; i < tx.getOutputs().size(); i++) {
            if (utxos.containsKey(new OutPoint(txid, i))) {
                throw new RejectedException(
                        "Transaction outputs already in utxo set", RejectedException.ALREADY_IN_CHAIN);
            }
        }
        if (txIndex.containsKey(txid)) {
            throw new RejectedException("Transaction already in block chain", RejectedException.ALREADY_IN_CHAIN);
        }
        BlockEntry tip = tip();
        int nextHeight = tip.height() + 1;
        if (!tx.isFinal(nextHeight, Instant.ofEpochSecond(medianTimePast(tip)))) {
            throw new RejectedException("non-final", RejectedException.VERIFY_REJECTED);
        }
        long valueIn = 0;
        List<UtxoEntry> prevouts = new ArrayList<>();
        for (TransactionInput in : tx.getInputs()) {
            OutPoint op = OutPoint.of(in.getOutpoint());
            if (mempool.spender(op) != null) {
                throw new RejectedException("txn-mempool-conflict", RejectedException.VERIFY_REJECTED);
            }
            UtxoEntry u = utxos.get(op);
            if (u == null) {
                u = mempool.output(op, nextHeight);
            }
            if (u == null) {
                throw new RejectedException("bad-txns-inputs-missingorspent", RejectedException.VERIFY_ERROR);
            }
            checkMaturity(u, nextHeight);
            valueIn += u.value();
            prevouts.add(u);
        }
        long fee = feeOrReject(tx, valueIn);
        verifyScripts(tx, prevouts);
        mempool.add(tx, fee, clock.instant().getEpochSecond(), tip.height());
        return txid;
    }

    /** Core's FormatMoney: BTC with trailing zeros dropped but at least two decimals. */
    static String formatMoney(long sats) {
        java.math.BigDecimal btc = java.math.BigDecimal.valueOf(sats, 8).stripTrailingZeros();
        return btc.setScale(Math.max(2, btc.scale())).toPlainString();
    }

    private static void checkMaturity(UtxoEntry u, int spendHeight) {
        if (u.coinbase() && spendHeight - u.height() < Consensus.COINBASE_MATURITY) {
            throw new RejectedException(
                    "bad-txns-premature-spend-of-coinbase",
                    "tried to spend coinbase at depth " + (spendHeight - u.height()),
                    RejectedException.VERIFY_REJECTED);
        }
    }

    private static long feeOrReject(Transaction tx, long valueIn) {
        long valueOut = 0;
        for (TransactionOutput out : tx.getOutputs()) {
            valueOut += out.getValue().value;
        }
        if (valueIn < valueOut) {
            throw new RejectedException(
                    "bad-txns-in-belowout",
                    "value in (" + formatMoney(valueIn) + ") < value out (" + formatMoney(valueOut) + ")",
                    RejectedException.VERIFY_REJECTED);
        }
        return valueIn - valueOut;
    }

    private void verifyScripts(Transaction tx, List<UtxoEntry> prevouts) {
        // A wtxid commits to the inputs' outpoints and hence to the scripts they spend, so a
        // transaction that passed once (entering the mempool) need not be checked again when
        // its block connects, as Core's script cache does.
        Sha256Hash wtxid = tx.getWTxId();
        if (scriptsVerified.contains(wtxid)) {
            return;
        }
        for (int i = 0; i < prevouts.size(); i++) {
            try {
                ScriptChecks.verify(
                        tx, i, prevouts.get(i).scriptUnsafe(), prevouts.get(i).value());
            } catch (ScriptException | IllegalArgumentException | IllegalStateException e) {
                throw new RejectedException(
                        "mandatory-script-verify-flag-failed (" + e.getMessage() + ")",
                        "input " + i,
                        RejectedException.VERIFY_REJECTED);
            }
        }
        if (scriptsVerified.size() >= SCRIPT_CACHE_SIZE) {
            scriptsVerified.clear();
        }
        scriptsVerified.add(wtxid);
    }

    // ---------------------------------------------------------------- mining

    /**
     * Mines {@code count} blocks on the tip, each with as much of the mempool as fits, paying the
     * coinbase to {@code payoutScript}.
     */
    public synchronized List<Sha256Hash> mine(int count, byte[] payoutScript) {
        List<Sha256Hash> hashes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Block block =
                    BlockAssembler.assemble(tip(), payoutScript, mempoolForBlock(), blockTime(tip()), extraNonce++);
            submitOwn(block);
            hashes.add(block.getHash());
        }
        return hashes;
    }

    /**
     * Mines {@code count} blocks with only a coinbase on top of {@code parent}, which need not be
     * the tip: the way to build a competing branch.
     */
    public synchronized List<Sha256Hash> mineOnto(Sha256Hash parent, int count, byte[] payoutScript) {
        BlockEntry p = blocks.get(parent);
        if (p == null) {
            throw new IllegalArgumentException("unknown parent block " + parent);
        }
        List<Sha256Hash> hashes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Block block = BlockAssembler.assemble(p, payoutScript, List.of(), blockTime(p), extraNonce++);
            submitOwn(block);
            hashes.add(block.getHash());
            p = blocks.get(block.getHash());
        }
        return hashes;
    }

    private void submitOwn(Block block) {
        try {
            submitBlock(block, block.serialize());
        } catch (RejectedException e) {
            throw new IllegalStateException("the embedded node rejected its own block: " + e.getMessage(), e);
        }
        BlockEntry e = blocks.get(block.getHash());
        if (e.invalid()) {
            throw new IllegalStateException("the embedded node's own block failed to connect: "
                    + e.failure().getMessage());
        }
    }

    /** Core's miner: the clock, but always above the parent's median time past. */
    private long blockTime(BlockEntry parent) {
        return Math.max(clock.instant().getEpochSecond(), medianTimePast(parent) + 1);
    }

    private List<Mempool.Entry> mempoolForBlock() {
        List<Mempool.Entry> chosen = new ArrayList<>();
        long weight = 4_000; // header, coinbase and a margin
        for (Mempool.Entry e : mempool.entries()) {
            weight += e.tx().getWeight();
            if (weight > Consensus.MAX_BLOCK_WEIGHT) {
                break; // arrival order keeps parents first, so stop rather than skip
            }
            chosen.add(e);
        }
        return chosen;
    }

    // ---------------------------------------------------------------- blocks

    /**
     * Validates and stores a block, then moves to the chain with the most work (which may
     * reorganise, connecting and disconnecting blocks).
     *
     * @throws RejectedException if the block breaks a rule (it is then not stored, or stored as invalid)
     */
    public synchronized BlockStatus submitBlock(Block block, byte[] raw) {
        Sha256Hash hash = block.getHash();
        BlockEntry known = blocks.get(hash);
        if (known != null) {
            return known.invalid() ? BlockStatus.DUPLICATE_INVALID : BlockStatus.DUPLICATE;
        }
        BlockEntry parent = blocks.get(block.getPrevBlockHash());
        if (parent == null) {
            throw new RejectedException("prev-blk-not-found", RejectedException.VERIFY_ERROR);
        }
        if (parent.invalid()) {
            throw new RejectedException("bad-prevblk", RejectedException.VERIFY_REJECTED);
        }
        BlockChecks.checkHeader(block, medianTimePast(parent), clock.instant().getEpochSecond());
        BlockChecks.checkBody(block, parent.height() + 1);
        BlockEntry entry = new BlockEntry(block, raw, parent, sequence++);
        blocks.put(hash, entry);
        activateBestChain();
        if (entry.invalid()) {
            RejectedException why = entry.failure();
            throw new RejectedException(why.reason(), why.detail(), why.rpcCode());
        }
        return onBestChain(entry) ? BlockStatus.ACCEPTED : BlockStatus.INCONCLUSIVE;
    }

    /** Marks a block and its descendants invalid and leaves them, as {@code invalidateblock}. */
    public synchronized void invalidate(Sha256Hash hash) {
        BlockEntry target = blocks.get(hash);
        if (target == null) {
            throw new IllegalArgumentException("Block not found");
        }
        if (target.prev() == null) {
            throw new IllegalArgumentException("cannot invalidate the genesis block");
        }
        List<Transaction> dropped = new ArrayList<>();
        while (tip().height() >= target.height() && onBestChain(target)) {
            dropped.addAll(0, nonCoinbase(tip()));
            disconnectTip();
        }
        for (BlockEntry e : blocks.values()) {
            if (e.ancestor(target.height()) == target) {
                e.markInvalid(
                        new RejectedException("invalidated", "by invalidateblock", RejectedException.VERIFY_REJECTED));
            }
        }
        List<Transaction> moreDropped = activate();
        dropped.addAll(moreDropped);
        refillMempool(dropped);
    }

    /** Clears invalid marks on a block, its ancestors and descendants, as {@code reconsiderblock}. */
    public synchronized void reconsider(Sha256Hash hash) {
        BlockEntry target = blocks.get(hash);
        if (target == null) {
            throw new IllegalArgumentException("Block not found");
        }
        for (BlockEntry e : blocks.values()) {
            if (e.ancestor(target.height()) == target) {
                e.clearInvalid();
            }
        }
        for (BlockEntry e = target; e != null; e = e.prev()) {
            e.clearInvalid();
        }
        activateBestChain();
    }

    private void activateBestChain() {
        refillMempool(activate());
    }

    /** Moves to the best valid chain; returns the transactions of disconnected blocks, oldest first. */
    private List<Transaction> activate() {
        List<Transaction> dropped = new ArrayList<>();
        while (true) {
            BlockEntry best = blocks.values().stream()
                    .filter(e -> !e.invalid())
                    .max(Comparator.comparing(BlockEntry::chainWork).thenComparing(e -> -e.sequence()))
                    .orElseThrow();
            if (best == tip() || best.chainWork().compareTo(tip().chainWork()) <= 0) {
                return dropped;
            }
            BlockEntry fork = best;
            while (!onBestChain(fork)) {
                fork = fork.prev();
            }
            List<Transaction> disconnected = new ArrayList<>();
            while (tip() != fork) {
                disconnected.addAll(0, nonCoinbase(tip()));
                disconnectTip();
            }
            dropped.addAll(disconnected);
            List<BlockEntry> path = new ArrayList<>();
            for (BlockEntry e = best; e != fork; e = e.prev()) {
                path.add(0, e);
            }
            for (BlockEntry e : path) {
                try {
                    connect(e);
                } catch (RejectedException r) {
                    for (BlockEntry d : blocks.values()) {
                        if (d.ancestor(e.height()) == e) {
                            d.markInvalid(r);
                        }
                    }
                    break;
                }
            }
        }
    }

    private static List<Transaction> nonCoinbase(BlockEntry e) {
        List<Transaction> txs = e.block().getTransactions();
        return new ArrayList<>(txs.subList(1, txs.size()));
    }

    /** Puts back transactions of disconnected blocks, then re-validates the old mempool after them. */
    private void refillMempool(List<Transaction> disconnected) {
        List<Transaction> candidates = new ArrayList<>(disconnected);
        for (Mempool.Entry e : mempool.drain()) {
            candidates.add(e.tx());
        }
        for (Transaction tx : candidates) {
            if (txIndex.containsKey(tx.getTxId())) {
                continue;
            }
            try {
                acceptToMempool(tx);
            } catch (RejectedException dropped) {
                // Conflicts with the new chain or now immature: dropped, as Core's mempool does.
            }
        }
    }

    private void connect(BlockEntry e) {
        Block block = e.block();
        int height = e.height();
        Instant lockTimeCutoff = Instant.ofEpochSecond(medianTimePast(e.prev()));
        List<Spent> spent = new ArrayList<>();
        List<OutPoint> created = new ArrayList<>();
        try {
            long fees = 0;
            List<Transaction> txs = block.getTransactions();
            for (int t = 0; t < txs.size(); t++) {
                Transaction tx = txs.get(t);
                Sha256Hash txid = tx.getTxId();
                if (t > 0) {
                    if (!tx.isFinal(height, lockTimeCutoff)) {
                        throw new RejectedException("bad-txns-nonfinal", RejectedException.VERIFY_REJECTED);
                    }
                    long valueIn = 0;
                    List<UtxoEntry> prevouts = new ArrayList<>();
                    for (TransactionInput in : tx.getInputs()) {
                        UtxoEntry u = utxos.get(OutPoint.of(in.getOutpoint()));
                        if (u == null) {
                            throw new RejectedException(
                                    "bad-txns-inputs-missingorspent", RejectedException.VERIFY_REJECTED);
                        }
                        checkMaturity(u, height);
                        valueIn += u.value();
                        prevouts.add(u);
                    }
                    fees += feeOrReject(tx, valueIn);
                    verifyScripts(tx, prevouts);
                    for (TransactionInput in : tx.getInputs()) {
                        OutPoint op = OutPoint.of(in.getOutpoint());
                        spent.add(new Spent(op, utxos.remove(op)));
                    }
                }
                for (int i = 0; i < tx.getOutputs().size(); i++) {
                    byte[] script = tx.getOutput(i).getScriptBytes();
                    if (isUnspendable(script)) {
                        continue;
                    }
                    OutPoint op = new OutPoint(txid, i);
                    if (utxos.containsKey(op)) {
                        throw new RejectedException(
                                "bad-txns-BIP30", "tried to overwrite transaction", RejectedException.VERIFY_REJECTED);
                    }
                    utxos.put(op, new UtxoEntry(tx.getOutput(i).getValue().value, script, height, t == 0));
                    created.add(op);
                }
            }
            long paid = txs.get(0).getOutputs().stream()
                    .mapToLong(o -> o.getValue().value)
                    .sum();
            long allowed = Consensus.subsidy(height).value + fees;
            if (paid > allowed) {
                throw new RejectedException(
                        "bad-cb-amount",
                        "coinbase pays too much (actual=" + paid + " vs limit=" + allowed + ")",
                        RejectedException.VERIFY_REJECTED);
            }
        } catch (RejectedException r) {
            created.forEach(utxos::remove);
            for (int i = spent.size() - 1; i >= 0; i--) {
                utxos.put(spent.get(i).outpoint(), spent.get(i).utxo());
            }
            throw r;
        }
        undo.put(e.hash(), spent);
        active.add(e);
        for (Transaction tx : block.getTransactions()) {
            txIndex.put(tx.getTxId(), e);
        }
    }

    private void disconnectTip() {
        BlockEntry e = tip();
        List<Transaction> txs = e.block().getTransactions();
        for (int t = txs.size() - 1; t >= 0; t--) {
            Transaction tx = txs.get(t);
            for (int i = 0; i < tx.getOutputs().size(); i++) {
                utxos.remove(new OutPoint(tx.getTxId(), i));
            }
            txIndex.remove(tx.getTxId());
        }
        List<Spent> spent = undo.remove(e.hash());
        for (int i = spent.size() - 1; i >= 0; i--) {
            utxos.put(spent.get(i).outpoint(), spent.get(i).utxo());
        }
        active.remove(active.size() - 1);
    }

    /** OP_RETURN outputs and oversized scripts never enter the UTXO set, as in Core. */
    private static boolean isUnspendable(byte[] script) {
        return (script.length > 0 && (script[0] & 0xff) == ScriptOpCodes.OP_RETURN) || script.length > 10_000;
    }
}
