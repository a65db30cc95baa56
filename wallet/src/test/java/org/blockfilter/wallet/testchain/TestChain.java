package org.blockfilter.wallet.testchain;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
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
 * A regtest chain built in memory for tests: real blocks (BIP 34 height, witness commitment,
 * solved at regtest difficulty), real signed P2WPKH transactions from a miner key, real basic
 * filters and filter headers. Can fork: {@link #forkAt(int)} copies the chain up to a height.
 * Not thread-safe.
 */
public final class TestChain {
    public static final BitcoinNetwork NETWORK = BitcoinNetwork.REGTEST;
    public static final NetworkParameters PARAMS = NetworkParameters.of(NETWORK);

    private final List<Block> blocks = new ArrayList<>();
    private final Map<Sha256Hash, Integer> heights = new HashMap<>();
    private final List<BasicFilter> filters = new ArrayList<>();
    private final List<Sha256Hash> filterHeaders = new ArrayList<>();
    private final Map<TransactionOutPoint, TransactionOutput> outputs = new HashMap<>();
    private final List<TransactionOutPoint> minerCoins = new ArrayList<>();
    private final ECKey miner;
    private final Script minerScript;
    private int salt;

    public TestChain() {
        this(ECKey.fromPrivate(Sha256Hash.hash("test miner".getBytes())), 0);
    }

    private TestChain(ECKey miner, int salt) {
        this.miner = miner;
        this.minerScript = ScriptBuilder.createP2WPKHOutputScript(miner);
        this.salt = salt;
        Block genesis = PARAMS.getGenesisBlock();
        addBlock(genesis);
    }

    /** A chain identical up to {@code height}, which can then grow its own branch. */
    public TestChain forkAt(int height) {
        TestChain f = new TestChain(miner, salt + 1_000_003);
        for (int h = 1; h <= height; h++) {
            f.addBlock(blocks.get(h));
        }
        return f;
    }

    public int tipHeight() {
        return blocks.size() - 1;
    }

    public Block block(int height) {
        return blocks.get(height);
    }

    public BasicFilter filter(int height) {
        return filters.get(height);
    }

    public Sha256Hash filterHeader(int height) {
        return filterHeaders.get(height);
    }

    public int height(Sha256Hash hash) {
        return heights.getOrDefault(hash, -1);
    }

    /** Mines {@code n} blocks with only a coinbase (to the miner). */
    public void mine(int n) {
        for (int i = 0; i < n; i++) {
            mineBlock(List.of());
        }
    }

    /** A signed transaction from the miner's coins paying {@code value} to each address. */
    public Transaction pay(List<Address> to, Coin value) {
        Transaction tx = new Transaction();
        Coin total = value.multiply(to.size());
        Coin fee = Coin.valueOf(1_000);
        List<TransactionOutput> spent = new ArrayList<>();
        Coin in = Coin.ZERO;
        while (in.compareTo(total.add(fee)) < 0) {
            if (minerCoins.isEmpty()) {
                throw new IllegalStateException("miner has no coins: mine more blocks first");
            }
            TransactionOutPoint op = minerCoins.remove(0);
            TransactionOutput out = outputs.get(op);
            tx.addInput(new TransactionInput(tx, new byte[0], op, out.getValue()));
            spent.add(out);
            in = in.add(out.getValue());
        }
        for (Address a : to) {
            tx.addOutput(value, a);
        }
        tx.addOutput(in.subtract(total).subtract(fee), minerScript);
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
        return tx;
    }

    /** Mines one block holding {@code txs} (after the coinbase); returns it. */
    public Block mineBlock(List<Transaction> txs) {
        Block prev = blocks.get(tipHeight());
        int height = tipHeight() + 1;
        Instant time = prev.time().plusSeconds(600);
        boolean witness = txs.stream().anyMatch(Transaction::hasWitnesses);
        Transaction coinbase = coinbase(height, null);
        if (witness) {
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
        org.bitcoinj.core.Context.propagate(new org.bitcoinj.core.Context());
        block.solve();
        // Round-trip through bytes so the block is exactly what a source would serve.
        Block parsed = Block.read(ByteBuffer.wrap(block.serialize()));
        addBlock(parsed);
        minerCoins.add(
                new TransactionOutPoint(0, parsed.getTransactions().get(0).getTxId()));
        for (Transaction tx :
                parsed.getTransactions().subList(1, parsed.getTransactions().size())) {
            for (TransactionOutput o : tx.getOutputs()) {
                if (java.util.Arrays.equals(o.getScriptBytes(), minerScript.program())) {
                    minerCoins.add(new TransactionOutPoint(o.getIndex(), tx.getTxId()));
                }
            }
        }
        return parsed;
    }

    private Transaction coinbase(int height, Sha256Hash witnessCommitment) {
        Transaction cb = new Transaction();
        byte[] script =
                new ScriptBuilder().number(height).number(salt + height).build().program();
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
        BasicFilter f = BasicFilter.build(b, op -> outputs.get(op).getScriptBytes());
        Sha256Hash prev =
                filterHeaders.isEmpty() ? FilterHeaders.GENESIS_PREV : filterHeaders.get(filterHeaders.size() - 1);
        heights.put(b.getHash(), blocks.size());
        blocks.add(b);
        filters.add(f);
        filterHeaders.add(FilterHeaders.next(f.filterHash(), prev));
    }

    public byte[] header(int height) {
        byte[] out = new byte[Block.HEADER_SIZE];
        System.arraycopy(blocks.get(height).serialize(), 0, out, 0, Block.HEADER_SIZE);
        return out;
    }

    public Address minerAddress() {
        return miner.toAddress(ScriptType.P2WPKH, NETWORK);
    }

    /** Broadcast target: transactions sent by the wallet wait here until {@link #mineMempool()}. */
    private final List<Transaction> mempool = new ArrayList<>();

    public void accept(Transaction tx) {
        mempool.add(tx);
    }

    public Block mineMempool() {
        List<Transaction> txs = List.copyOf(mempool);
        mempool.clear();
        return mineBlock(txs);
    }
}
