package org.blockfilter.filters.testing;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.crypto.TransactionSignature;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;

/**
 * A regtest chain built in memory for tests, the one chain builder and signer of the project's
 * tests: real blocks (BIP 34 height in the coinbase, witness commitment when a transaction has a
 * witness, solved at regtest difficulty), P2WPKH transactions signed by a miner key, and the basic
 * filter and filter header of every block. It can fork ({@link #forkAt(int)} copies the chain up
 * to a height) and reorganise in place ({@link #disconnect(int)} drops the tip blocks and changes
 * the coinbases of the blocks mined after it).
 *
 * <p>It remembers the script of every output it ever created, on any branch ({@link
 * #scriptOf(TransactionOutPoint)}), an independent prevout lookup for expected filters. A block
 * may spend an output the chain never created (to test that an indexer refuses it); asking for
 * that block's filter then throws. Mutable and not thread-safe; {@code null} is never accepted or
 * returned unless a method says so.
 */
public final class RegtestChainBuilder {
    public static final BitcoinNetwork NETWORK = BitcoinNetwork.REGTEST;
    public static final NetworkParameters PARAMS = NetworkParameters.of(NETWORK);
    private static final Coin FEE = Coin.valueOf(1_000);

    private final List<Block> blocks = new ArrayList<>();
    private final Map<Sha256Hash, Integer> heights = new HashMap<>();
    private final List<BasicFilter> filters = new ArrayList<>();
    private final List<Sha256Hash> filterHeaders = new ArrayList<>();
    private final Map<TransactionOutPoint, TransactionOutput> outputs = new HashMap<>();
    private final List<TransactionOutPoint> minerCoins = new ArrayList<>();
    private final List<Transaction> mempool = new ArrayList<>();
    private final ECKey miner;
    private final Script minerScript;
    private int salt;

    /** A chain of the regtest genesis block alone, mined by a fixed key; the same every time. */
    public RegtestChainBuilder() {
        this(0);
    }

    /**
     * The same, but every block mined on it differs from the blocks of a builder with another
     * {@code salt} (two chains that share only the genesis block).
     */
    public RegtestChainBuilder(int salt) {
        this(ECKey.fromPrivate(Sha256Hash.hash("test miner".getBytes())), salt);
    }

    private RegtestChainBuilder(ECKey miner, int salt) {
        this.miner = miner;
        this.minerScript = ScriptBuilder.createP2WPKHOutputScript(miner);
        this.salt = salt;
        addBlock(PARAMS.getGenesisBlock());
    }

    /**
     * A chain identical up to {@code height}, which can then grow its own branch. The fork's miner
     * starts with no coins: mine on the fork before paying from it.
     */
    public RegtestChainBuilder forkAt(int height) {
        RegtestChainBuilder f = new RegtestChainBuilder(miner, salt + 1_000_003);
        for (int h = 1; h <= height; h++) {
            f.addBlock(blocks.get(h));
        }
        return f;
    }

    /**
     * Drops the top {@code depth} blocks (not the genesis block). Blocks mined afterwards get other
     * coinbases, so they differ from the dropped ones even with the same transactions.
     */
    public RegtestChainBuilder disconnect(int depth) {
        if (depth < 0 || depth > tipHeight()) {
            throw new IllegalArgumentException("cannot disconnect " + depth + " blocks from height " + tipHeight());
        }
        Set<Sha256Hash> dropped = new HashSet<>();
        for (int i = 0; i < depth; i++) {
            Block b = blocks.remove(blocks.size() - 1);
            heights.remove(b.getHash());
            b.getTransactions().forEach(tx -> dropped.add(tx.getTxId()));
        }
        int keep = blocks.size();
        filters.subList(Math.min(keep, filters.size()), filters.size()).clear();
        filterHeaders
                .subList(Math.min(keep, filterHeaders.size()), filterHeaders.size())
                .clear();
        minerCoins.removeIf(op -> dropped.contains(op.hash()));
        salt += 7_919;
        return this;
    }

    public int tipHeight() {
        return blocks.size() - 1;
    }

    public Block block(int height) {
        return blocks.get(height);
    }

    public Block tip() {
        return blocks.get(tipHeight());
    }

    /** The height of a block on this chain, or -1. */
    public int height(Sha256Hash hash) {
        return heights.getOrDefault(hash, -1);
    }

    /** The block's 80-byte header. */
    public byte[] header(int height) {
        return Arrays.copyOf(blocks.get(height).serialize(), Block.HEADER_SIZE);
    }

    /** The block's BIP 158 basic filter, built with this chain's prevout scripts. */
    public BasicFilter filter(int height) {
        computeFiltersUpTo(height);
        return filters.get(height);
    }

    /** The block's BIP 157 filter header. */
    public Sha256Hash filterHeader(int height) {
        computeFiltersUpTo(height);
        return filterHeaders.get(height);
    }

    /** The script of any output this chain ever created, on any branch, or {@code null}. */
    public byte[] scriptOf(TransactionOutPoint op) {
        TransactionOutput out = outputs.get(op);
        return out == null ? null : out.getScriptBytes();
    }

    public ECKey minerKey() {
        return miner;
    }

    /** The miner's P2WPKH output script, which every coinbase pays. */
    public Script minerScript() {
        return minerScript;
    }

    public Address minerAddress() {
        return miner.toAddress(ScriptType.P2WPKH, NETWORK);
    }

    /** Mines {@code n} blocks with only a coinbase (to the miner). */
    public RegtestChainBuilder mine(int n) {
        for (int i = 0; i < n; i++) {
            mineBlock(List.of());
        }
        return this;
    }

    /** A signed transaction from the miner's coins paying {@code value} to each address, change to the miner. */
    public Transaction pay(List<Address> to, Coin value) {
        Transaction tx = new Transaction();
        Coin total = value.multiply(to.size());
        List<TransactionOutput> spent = new ArrayList<>();
        Coin in = Coin.ZERO;
        while (in.compareTo(total.add(FEE)) < 0) {
            if (minerCoins.isEmpty()) {
                throw new IllegalStateException("miner has no coins: mine more blocks first");
            }
            TransactionOutput out = outputs.get(minerCoins.remove(0));
            tx.addInput(new TransactionInput(tx, new byte[0], out.getOutPointFor(), out.getValue()));
            spent.add(out);
            in = in.add(out.getValue());
        }
        for (Address a : to) {
            tx.addOutput(value, a);
        }
        tx.addOutput(in.subtract(total).subtract(FEE), minerScript);
        sign(tx, spent);
        return tx;
    }

    /**
     * A transaction spending {@code prev} (an output of a mined or not yet mined transaction) to
     * {@code value} on {@code to}, plus an OP_RETURN of {@code note} unless it is {@code null}. The
     * input is signed when {@code prev} pays the miner's P2WPKH script, and left without a
     * signature otherwise (indexers do not check signatures).
     */
    public Transaction spend(TransactionOutput prev, Script to, Coin value, byte[] note) {
        Transaction tx = new Transaction();
        tx.addInput(new TransactionInput(tx, new byte[0], prev.getOutPointFor(), prev.getValue()));
        tx.addOutput(value, to);
        if (note != null) {
            tx.addOutput(Coin.ZERO, ScriptBuilder.createOpReturnScript(note));
        }
        if (Arrays.equals(prev.getScriptBytes(), minerScript.program())) {
            sign(tx, List.of(prev));
        }
        return tx;
    }

    private void sign(Transaction tx, List<TransactionOutput> spent) {
        for (int i = 0; i < spent.size(); i++) {
            TransactionSignature sig = tx.calculateWitnessSignature(
                    i,
                    miner,
                    ScriptBuilder.createP2PKHOutputScript(miner),
                    spent.get(i).getValue(),
                    Transaction.SigHash.ALL,
                    false);
            tx.replaceInput(i, tx.getInput(i).withWitness(TransactionWitness.redeemP2WPKH(sig, miner)));
        }
    }

    /** Mines one block holding {@code txs} (after the coinbase); returns it. */
    public Block mineBlock(List<Transaction> txs) {
        Block prev = tip();
        int height = tipHeight() + 1;
        Instant time = prev.time().plusSeconds(600);
        Transaction coinbase = coinbase(height, null);
        if (txs.stream().anyMatch(Transaction::hasWitnesses)) {
            List<Transaction> probe = new ArrayList<>();
            probe.add(coinbase);
            probe.addAll(txs);
            Block draft = new Block(
                    Block.BLOCK_VERSION_BIP65, prev.getHash(), null, time, prev.getDifficultyTarget(), 0, probe);
            Sha256Hash commitment = Sha256Hash.twiceOf(draft.getWitnessRoot().serialize(), new byte[32]);
            coinbase = coinbase(height, commitment);
        }
        List<Transaction> all = new ArrayList<>();
        all.add(coinbase);
        all.addAll(txs);
        Block block =
                new Block(Block.BLOCK_VERSION_BIP65, prev.getHash(), null, time, prev.getDifficultyTarget(), 0, all);
        // bitcoinj's proof-of-work check in solve() reads the thread's Context.
        Context.propagate(new Context());
        block.solve();
        // Round-trip through bytes so the block is exactly what a source would serve.
        Block parsed = Block.read(ByteBuffer.wrap(block.serialize()));
        addBlock(parsed);
        collectMinerCoins(parsed);
        return parsed;
    }

    /** Broadcast target: transactions sent by a wallet wait here until {@link #mineMempool()}. */
    public void accept(Transaction tx) {
        mempool.add(tx);
    }

    public Block mineMempool() {
        List<Transaction> txs = List.copyOf(mempool);
        mempool.clear();
        return mineBlock(txs);
    }

    private Transaction coinbase(int height, Sha256Hash witnessCommitment) {
        Transaction cb = new Transaction();
        byte[] script = new ScriptBuilder()
                .number(height)
                .number((long) salt + height)
                .build()
                .program();
        TransactionInput in = TransactionInput.coinbaseInput(cb, script);
        if (witnessCommitment != null) {
            in = in.withWitness(TransactionWitness.of(new byte[32]));
        }
        cb.addInput(in);
        cb.addOutput(Coin.FIFTY_COINS, minerScript);
        if (witnessCommitment != null) {
            byte[] data = new byte[36];
            data[0] = (byte) 0xaa;
            data[1] = 0x21;
            data[2] = (byte) 0xa9;
            data[3] = (byte) 0xed;
            System.arraycopy(witnessCommitment.getBytes(), 0, data, 4, 32);
            cb.addOutput(Coin.ZERO, ScriptBuilder.createOpReturnScript(data));
        }
        return cb;
    }

    private void addBlock(Block b) {
        for (Transaction tx : b.getTransactions()) {
            for (TransactionOutput o : tx.getOutputs()) {
                outputs.put(new TransactionOutPoint(o.getIndex(), tx.getTxId()), o);
            }
        }
        heights.put(b.getHash(), blocks.size());
        blocks.add(b);
    }

    private void collectMinerCoins(Block b) {
        Set<TransactionOutPoint> spentHere = new HashSet<>();
        for (Transaction tx : b.getTransactions()) {
            if (!tx.isCoinBase()) {
                tx.getInputs().forEach(in -> spentHere.add(in.getOutpoint()));
            }
        }
        minerCoins.removeAll(spentHere);
        for (Transaction tx : b.getTransactions()) {
            for (TransactionOutput o : tx.getOutputs()) {
                TransactionOutPoint op = new TransactionOutPoint(o.getIndex(), tx.getTxId());
                if (Arrays.equals(o.getScriptBytes(), minerScript.program()) && !spentHere.contains(op)) {
                    minerCoins.add(op);
                }
            }
        }
    }

    private void computeFiltersUpTo(int height) {
        if (height < 0 || height > tipHeight()) {
            throw new IndexOutOfBoundsException("height " + height + " not in 0.." + tipHeight());
        }
        while (filters.size() <= height) {
            Block b = blocks.get(filters.size());
            BasicFilter f = BasicFilter.build(b, op -> {
                TransactionOutput out = outputs.get(op);
                if (out == null) {
                    throw new IllegalStateException(
                            "block " + b.getHash() + " spends " + op + ", an output this chain never created");
                }
                return out.getScriptBytes();
            });
            Sha256Hash prev =
                    filterHeaders.isEmpty() ? FilterHeaders.GENESIS_PREV : filterHeaders.get(filterHeaders.size() - 1);
            filters.add(f);
            filterHeaders.add(FilterHeaders.next(f.filterHash(), prev));
        }
    }
}
