package org.blockfilter.regtest.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.RegtestNodeException;
import org.blockfilter.regtest.scenario.internal.OwnedUtxo;
import org.blockfilter.regtest.scenario.internal.TxSigner;
import org.blockfilter.regtest.scenario.internal.TxSigner.Out;
import org.blockfilter.regtest.scenario.internal.WalletBook;

/**
 * Builds a {@link ScenarioSpec}'s chain on any {@link RegtestNode} through its interface only:
 * mines to maturity, fans coinbases out to the wallets, then fills blocks with signed payments
 * (multi-input, change, reuse, OP_RETURN, every {@link OutputKind}), leaves some blocks empty and
 * forces the spec's reorgs, re-mining the dropped transactions. At the end it reads the best
 * chain back, checks it against its own model of the wallets' coins, and returns the
 * {@link GroundTruth}. Stateless; each run owns its state.
 *
 * <p>Chains of any length work: regtest halves the subsidy every 150 blocks, so coinbases shrink
 * to fees only (zero for an empty block) from height 4,950. The miner fans a coinbase out into as
 * many outputs as it can fund (at most 20, each at least 10,000 sat) and keeps coinbases too small
 * for one such output; the wallets go on paying each other from the coins they hold.
 */
public final class ScenarioRunner {
    private static final Coin MIN_OUTPUT = Coin.valueOf(10_000);
    private static final Coin MIN_CHANGE = Coin.valueOf(20_000);
    private static final int FAN_OUT = 20;
    /** The longest output script the scenario pays to (bare 1-of-2 multisig), for fee upper bounds. */
    private static final int MAX_SCRIPT_BYTES = 71;

    private static final int PROGRESS_EVERY = 50;

    private ScenarioRunner() {}

    /** Runs {@code spec} on {@code node}, printing progress to stderr. */
    public static GroundTruth run(RegtestNode node, ScenarioSpec spec) {
        return run(node, spec, line -> System.err.println("[scenario] " + line));
    }

    /**
     * Runs {@code spec} on {@code node}, which must be fresh (tip at genesis) and mine to
     * {@link ScenarioSpec#miningAddress()}.
     *
     * @throws IllegalArgumentException if the node does not fit the spec
     * @throws RegtestNodeException            if the node fails or rejects a scenario transaction
     * @throws IllegalStateException    if the chain read back disagrees with what was built
     */
    public static GroundTruth run(RegtestNode node, ScenarioSpec spec, Consumer<String> progress) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(progress, "progress");
        if (!node.miningAddress().equals(spec.miningAddress())) {
            throw new IllegalArgumentException(node.name() + " mines to " + node.miningAddress()
                    + ", but the scenario's coinbases must pay spec.miningAddress() = " + spec.miningAddress());
        }
        if (node.tipHeight() != 0) {
            throw new IllegalArgumentException(node.name() + " is not fresh: tip height " + node.tipHeight());
        }
        for (ScenarioSpec.Reorg r : spec.reorgs()) {
            if (r.atHeight() > spec.blocks()) {
                throw new IllegalArgumentException(
                        "reorg at height " + r.atHeight() + " is above the scenario's " + spec.blocks() + " blocks");
            }
        }
        return new Run(node, spec, progress).execute();
    }

    /** One scenario run: the model of the wallets' coins and the chain as built so far. */
    private static final class Run {
        private final RegtestNode node;
        private final ScenarioSpec spec;
        private final Consumer<String> progress;
        private final Random rng;
        private final WalletBook book;
        private final long started = System.nanoTime();

        /** Best chain as we know it: hash and parsed block per height. */
        private final List<Sha256Hash> chain = new ArrayList<>();

        private final List<Block> blocks = new ArrayList<>();
        /** Confirmed, unspent, owned outputs, and the same by creation order (coin selection's order). */
        private final Map<TransactionOutPoint, OwnedUtxo> pool = new HashMap<>();

        private final TreeMap<Long, OwnedUtxo> poolByOrder = new TreeMap<>();
        /** Outputs a scenario transaction spends (confirmed or not). */
        private final Set<TransactionOutPoint> spent = new HashSet<>();
        /** Every scenario transaction by creation order, and those not yet in a best-chain block. */
        private final Map<Sha256Hash, Created> created = new LinkedHashMap<>();

        private final TreeMap<Long, Created> pending = new TreeMap<>();
        private final List<ReorgRecord> reorgs = new ArrayList<>();
        private long order;

        private record Created(long order, Transaction tx, int fromWallet, boolean fanOut) {}

        Run(RegtestNode node, ScenarioSpec spec, Consumer<String> progress) {
            this.node = node;
            this.spec = spec;
            this.progress = progress;
            this.rng = new Random(spec.seed());
            this.book = new WalletBook(spec.seed(), spec.wallets());
        }

        GroundTruth execute() {
            chain.add(node.blockHash(0).orElseThrow());
            blocks.add(node.block(chain.get(0)).orElseThrow());
            progress.accept("building " + spec + " on " + node.name());
            Iterator<ScenarioSpec.Reorg> nextReorgs = spec.reorgs().iterator();
            ScenarioSpec.Reorg nextReorg = nextReorgs.hasNext() ? nextReorgs.next() : null;
            while (tip() < spec.blocks() || (nextReorg != null && tip() == nextReorg.atHeight())) {
                if (nextReorg != null && tip() == nextReorg.atHeight()) {
                    reorg(nextReorg);
                    nextReorg = nextReorgs.hasNext() ? nextReorgs.next() : null;
                    continue;
                }
                int next = tip() + 1;
                int limit = Math.min(spec.blocks(), nextReorg == null ? Integer.MAX_VALUE : nextReorg.atHeight());
                if (!hasSpendable(next)) {
                    // Nothing to spend yet: mine up to the next maturity in one call (with no coin
                    // in sight, the coinbase of the next block is the first to mature).
                    int matures = pool.values().stream()
                            .mapToInt(OwnedUtxo::spendableAt)
                            .filter(h -> h > next)
                            .min()
                            .orElse(next + ScenarioSpec.COINBASE_MATURITY);
                    mineAndRead(Math.max(1, Math.min(limit, matures - 1) - tip()));
                    continue;
                }
                if (rng.nextDouble() >= spec.emptyBlockRate()) {
                    createTransactions(
                            next,
                            spec.minTxsPerBlock() + rng.nextInt(spec.maxTxsPerBlock() - spec.minTxsPerBlock() + 1));
                }
                mineAndRead(1);
            }
            settlePending();
            progress.accept("done: tip " + tip() + ", " + created.size() + " scenario transactions, " + reorgs.size()
                    + " reorgs, " + elapsed());
            return groundTruth();
        }

        private int tip() {
            return chain.size() - 1;
        }

        private String elapsed() {
            return String.format("%.1f s", (System.nanoTime() - started) / 1e9);
        }

        private List<OwnedUtxo> spendable(int height) {
            return poolByOrder.values().stream()
                    .filter(u -> isSpendable(u, height))
                    .toList();
        }

        private boolean hasSpendable(int height) {
            return poolByOrder.values().stream().anyMatch(u -> isSpendable(u, height));
        }

        /** Mature, signable, and for a coinbase large enough to fan out (long chains pile up dust coinbases). */
        private static boolean isSpendable(OwnedUtxo u, int height) {
            return u.spendableAt() <= height
                    && u.script().kind().spentByScenario()
                    && (!u.coinbase() || fanOutWidth(u.value()) > 0);
        }

        private void addCoin(OwnedUtxo u) {
            pool.put(u.outpoint(), u);
            poolByOrder.put(u.order(), u);
        }

        private OwnedUtxo removeCoin(TransactionOutPoint op) {
            OwnedUtxo u = pool.remove(op);
            if (u != null) {
                poolByOrder.remove(u.order());
            }
            return u;
        }

        private void createTransactions(int height, int count) {
            List<OwnedUtxo> available = new ArrayList<>(spendable(height));
            int made = 0;
            // The miner distributes its oldest mature coinbase first: that is where coins come from.
            OwnedUtxo coinbase = available.stream()
                    .filter(u -> u.coinbase() && u.script().wallet() == 0)
                    .findFirst()
                    .orElse(null);
            if (coinbase != null && count > 0) {
                available.remove(coinbase);
                fanOut(coinbase);
                made++;
            }
            while (made < count) {
                List<Integer> funded = available.stream()
                        .map(u -> u.script().wallet())
                        .filter(w -> w != 0)
                        .distinct()
                        .sorted()
                        .toList();
                if (funded.isEmpty()) {
                    return;
                }
                int wallet = funded.get(rng.nextInt(funded.size()));
                List<OwnedUtxo> mine = new ArrayList<>(available.stream()
                        .filter(u -> u.script().wallet() == wallet)
                        .toList());
                Collections.shuffle(mine, rng);
                List<OwnedUtxo> inputs = List.copyOf(mine.subList(0, Math.min(mine.size(), 1 + rng.nextInt(3))));
                available.removeAll(inputs);
                pay(wallet, inputs);
                made++;
            }
        }

        private void fanOut(OwnedUtxo coinbase) {
            int width = fanOutWidth(coinbase.value());
            List<Out> outs = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                OwnedScript to = book.receiveScript(1 + rng.nextInt(spec.wallets()), rng, spec.addressReuseRate());
                outs.add(new Out(to.scriptPubKey(), MIN_OUTPUT));
            }
            Coin fee = TxSigner.fee(List.of(coinbase), outs);
            Coin each = coinbase.value().subtract(fee).divide(width);
            if (each.isLessThan(MIN_OUTPUT)) {
                throw new IllegalStateException("cannot fan out coinbase " + coinbase.outpoint() + " of "
                        + coinbase.value() + " into " + width + " outputs of at least " + MIN_OUTPUT);
            }
            outs.replaceAll(o -> new Out(o.script(), each));
            submit(0, true, List.of(coinbase), outs);
        }

        /**
         * How many outputs of at least {@link #MIN_OUTPUT} a coinbase of {@code value} funds, fee
         * included (at most {@link #FAN_OUT}; 0 when it cannot fund one). Assumes the longest
         * output script, so the real fee is never more.
         */
        private static int fanOutWidth(Coin value) {
            for (int n = FAN_OUT; n > 0; n--) {
                long vbytes = 11 + 69 + (long) n * (9 + MAX_SCRIPT_BYTES);
                if (value.value - vbytes * TxSigner.FEE_RATE >= n * MIN_OUTPUT.value) {
                    return n;
                }
            }
            return 0;
        }

        private void pay(int wallet, List<OwnedUtxo> inputs) {
            Coin total = inputs.stream().map(OwnedUtxo::value).reduce(Coin.ZERO, Coin::add);
            List<Out> outs = new ArrayList<>();
            int payments = rng.nextInt(10) < 3 ? 2 : 1;
            for (int i = 0; i < payments; i++) {
                int to = spec.wallets() == 1 ? 1 : 1 + rng.nextInt(spec.wallets());
                if (to == wallet && spec.wallets() > 1) {
                    to = 1 + (to % spec.wallets());
                }
                outs.add(new Out(
                        book.receiveScript(to, rng, spec.addressReuseRate()).scriptPubKey(), MIN_OUTPUT));
            }
            if (rng.nextInt(10) == 0) {
                byte[] data = new byte[8 + rng.nextInt(33)];
                rng.nextBytes(data);
                outs.add(new Out(ScriptBuilder.createOpReturnScript(data), Coin.ZERO));
            }
            OwnedScript change = book.changeScript(wallet, rng);
            Coin feeWithChange = TxSigner.fee(inputs, append(outs, new Out(change.scriptPubKey(), MIN_CHANGE)));
            Coin budget = total.subtract(feeWithChange);
            if (budget.isLessThan(MIN_OUTPUT.multiply(payments).add(MIN_CHANGE))) {
                // Too small to split: one payment of everything minus the fee.
                Out first = outs.get(0);
                outs.clear();
                outs.add(new Out(first.script(), total.subtract(TxSigner.fee(inputs, List.of(first)))));
                if (outs.get(0).value().isLessThan(MIN_OUTPUT)) {
                    return;
                }
                submit(wallet, false, inputs, outs);
                return;
            }
            Coin paid = Coin.ZERO;
            for (int i = 0; i < outs.size(); i++) {
                if (outs.get(i).value().isZero()) {
                    continue;
                }
                // Each payment takes 5-45% of what is left for payments and change.
                long room = budget.subtract(paid).subtract(MIN_CHANGE).value;
                long amount = Math.max(MIN_OUTPUT.value, room * (5 + rng.nextInt(41)) / 100 / payments);
                outs.set(i, new Out(outs.get(i).script(), Coin.valueOf(amount)));
                paid = paid.add(Coin.valueOf(amount));
            }
            outs.add(new Out(change.scriptPubKey(), budget.subtract(paid)));
            submit(wallet, false, inputs, outs);
        }

        private static List<Out> append(List<Out> list, Out extra) {
            List<Out> copy = new ArrayList<>(list);
            copy.add(extra);
            return copy;
        }

        private void submit(int wallet, boolean fanOut, List<OwnedUtxo> inputs, List<Out> outs) {
            Transaction tx = TxSigner.sign(inputs, outs);
            Sha256Hash txid;
            try {
                txid = node.submitTransaction(tx.serialize());
            } catch (RegtestNodeException e) {
                throw new RegtestNodeException(
                        "scenario transaction " + tx.getTxId() + " from wallet " + wallet + " spending "
                                + inputs.stream().map(u -> u.script().kind()).toList() + " was rejected: "
                                + e.getMessage(),
                        e);
            }
            if (!txid.equals(tx.getTxId())) {
                throw new IllegalStateException(node.name() + " returned txid " + txid + " for " + tx.getTxId());
            }
            for (OwnedUtxo u : inputs) {
                removeCoin(u.outpoint());
                spent.add(u.outpoint());
            }
            Created c = new Created(order++, tx, wallet, fanOut);
            created.put(txid, c);
            pending.put(c.order(), c);
        }

        private void mineAndRead(int count) {
            for (Sha256Hash hash : node.mine(count)) {
                readBlock(hash);
            }
            if (tip() % PROGRESS_EVERY == 0 || tip() == spec.blocks()) {
                progress.accept("height " + tip() + "/" + spec.blocks() + ", " + created.size() + " transactions, "
                        + elapsed());
            }
        }

        /** Appends a best-chain block to our view and applies it to the model. */
        private void readBlock(Sha256Hash hash) {
            Block block =
                    node.block(hash).orElseThrow(() -> new IllegalStateException(node.name() + " lost block " + hash));
            if (!block.getPrevBlockHash().equals(chain.get(tip()))) {
                throw new IllegalStateException(node.name() + " built block " + hash + " on " + block.getPrevBlockHash()
                        + ", not on our tip " + chain.get(tip()));
            }
            int height = tip() + 1;
            chain.add(hash);
            blocks.add(block);
            for (Transaction tx : block.getTransactions()) {
                if (tx.isCoinBase()) {
                    addOutputs(tx, height, height + ScenarioSpec.COINBASE_MATURITY, true, order++);
                } else {
                    Created c = created.get(tx.getTxId());
                    if (c != null && pending.remove(c.order()) != null) {
                        addOutputs(tx, height, height + 1, false, c.order());
                    }
                }
            }
        }

        private void addOutputs(Transaction tx, int height, int spendableAt, boolean coinbase, long txOrder) {
            for (TransactionOutput out : tx.getOutputs()) {
                TransactionOutPoint op = new TransactionOutPoint(out.getIndex(), tx.getTxId());
                if (spent.contains(op)) {
                    continue;
                }
                book.owner(out.getScriptBytes())
                        .ifPresent(s -> addCoin(new OwnedUtxo(
                                op, out.getValue(), s, txOrder * 1000 + out.getIndex(), spendableAt, coinbase)));
            }
        }

        private void reorg(ScenarioSpec.Reorg r) {
            int fork = tip() - r.depth();
            List<Sha256Hash> dropped = List.copyOf(chain.subList(fork + 1, chain.size()));
            progress.accept("reorg at height " + tip() + ": dropping " + r.depth() + " blocks");
            List<Sha256Hash> branch = node.reorg(r.depth(), r.depth() + 1);
            for (int h = tip(); h > fork; h--) {
                Block block = blocks.get(h);
                for (Transaction tx : block.getTransactions()) {
                    for (TransactionOutput out : tx.getOutputs()) {
                        TransactionOutPoint op = new TransactionOutPoint(out.getIndex(), tx.getTxId());
                        if (tx.isCoinBase() && book.owner(out.getScriptBytes()).isPresent() && removeCoin(op) == null) {
                            throw new IllegalStateException("a dropped coinbase was spent: " + op);
                        }
                        removeCoin(op);
                    }
                    Created c = created.get(tx.getTxId());
                    if (c != null) {
                        pending.put(c.order(), c);
                    }
                }
                chain.remove(h);
                blocks.remove(h);
            }
            for (Sha256Hash hash : branch) {
                readBlock(hash);
            }
            reorgs.add(new ReorgRecord(fork, dropped, branch));
            settlePending();
        }

        /** Mines until every scenario transaction is in a best-chain block, resubmitting any the node forgot. */
        private void settlePending() {
            if (pending.isEmpty()) {
                return;
            }
            mineAndRead(1);
            if (pending.isEmpty()) {
                return;
            }
            for (Created c : List.copyOf(pending.values())) {
                node.submitTransaction(c.tx().serialize());
            }
            mineAndRead(1);
            if (!pending.isEmpty()) {
                throw new IllegalStateException(
                        node.name() + " did not mine " + pending.size() + " scenario transactions, e.g. "
                                + pending.firstEntry().getValue().tx().getTxId());
            }
        }

        /** Reads the best chain back from the node and checks it against the model. */
        private GroundTruth groundTruth() {
            for (int h = 0; h <= tip(); h++) {
                Sha256Hash atNode = node.blockHash(h).orElse(null);
                if (!chain.get(h).equals(atNode)) {
                    throw new IllegalStateException(
                            node.name() + " has " + atNode + " at height " + h + ", we built " + chain.get(h));
                }
            }
            Map<TransactionOutPoint, OwnedOutput> outputs = new LinkedHashMap<>();
            Map<Sha256Hash, Integer> confirmedAt = new HashMap<>();
            for (int h = 0; h <= tip(); h++) {
                for (Transaction tx : blocks.get(h).getTransactions()) {
                    confirmedAt.put(tx.getTxId(), h);
                    if (!tx.isCoinBase()) {
                        for (TransactionInput in : tx.getInputs()) {
                            outputs.computeIfPresent(
                                    in.getOutpoint(),
                                    (op, o) -> new OwnedOutput(
                                            op,
                                            o.script(),
                                            o.value(),
                                            o.height(),
                                            o.blockHash(),
                                            o.coinbase(),
                                            java.util.Optional.of(tx.getTxId())));
                        }
                    }
                    for (TransactionOutput out : tx.getOutputs()) {
                        int height = h;
                        book.owner(out.getScriptBytes()).ifPresent(s -> {
                            TransactionOutPoint op = new TransactionOutPoint(out.getIndex(), tx.getTxId());
                            outputs.put(
                                    op,
                                    new OwnedOutput(
                                            op,
                                            s,
                                            out.getValue(),
                                            height,
                                            chain.get(height),
                                            tx.isCoinBase(),
                                            java.util.Optional.empty()));
                        });
                    }
                }
            }
            Set<TransactionOutPoint> unspentOnChain = new HashSet<>();
            outputs.values().stream().filter(OwnedOutput::unspent).forEach(o -> unspentOnChain.add(o.outpoint()));
            if (!unspentOnChain.equals(pool.keySet())) {
                throw new IllegalStateException("the chain has " + unspentOnChain.size()
                        + " unspent scenario outputs, the model " + pool.size());
            }
            List<ScenarioTx> txs = new ArrayList<>();
            for (Map.Entry<Sha256Hash, Created> e : created.entrySet()) {
                Integer h = confirmedAt.get(e.getKey());
                if (h == null) {
                    throw new IllegalStateException("scenario transaction " + e.getKey() + " is not on the best chain");
                }
                Created c = e.getValue();
                txs.add(new ScenarioTx(e.getKey(), c.tx().serialize(), c.fromWallet(), c.fanOut(), h, chain.get(h)));
            }
            return new GroundTruth(spec, book.snapshot(), List.copyOf(outputs.values()), txs, reorgs, chain);
        }
    }
}
