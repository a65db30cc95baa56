package org.blockfilter.server.index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.params.RegTestParams;
import org.bitcoinj.script.ScriptBuilder;

/**
 * A regtest chain built with bitcoinj for unit tests, served as a {@link BlockSource}. Each block
 * spends the previous block's coinbase, then spends that spend's first output in the same block,
 * and carries an OP_RETURN tagged with its branch, so reorg branches differ. It remembers the
 * script of every output it ever created, an independent prevout lookup for expected filters.
 * Not thread-safe; for tests on one thread.
 */
final class TestChain implements BlockSource {
    private static final ECKey KEY = ECKey.fromPrivate(java.math.BigInteger.valueOf(1234567));
    private final List<Block> best = new ArrayList<>();
    private final Map<Sha256Hash, byte[]> raw = new HashMap<>();
    private final Map<String, byte[]> everyOutput = new HashMap<>();
    private int branch;

    TestChain() {
        // bitcoinj's proof-of-work check in solve() reads the thread's Context.
        Context.propagate(new Context());
        Block genesis = RegTestParams.get().getGenesisBlock();
        add(genesis);
    }

    /** Mines {@code n} blocks on the tip. */
    TestChain mine(int n) {
        for (int i = 0; i < n; i++) {
            Block prev = best.get(best.size() - 1);
            Transaction prevCoinbase = prev.getTransactions().get(0);
            TransactionOutPoint spend = new TransactionOutPoint(0, prevCoinbase.getTxId());
            Block next = prev.createNextBlock(
                    KEY.toAddress(ScriptType.P2WPKH, RegTestParams.get().network()), spend);
            // createNextBlock spent the previous coinbase in tx 1; spend its output 0 in the same block.
            Transaction first = next.getTransactions().get(1);
            Transaction chained = new Transaction();
            chained.addInput(first.getTxId(), 0, ScriptBuilder.createEmpty());
            chained.addOutput(Coin.COIN, ScriptBuilder.createP2PKHOutputScript(KEY));
            chained.addOutput(
                    Coin.ZERO, ScriptBuilder.createOpReturnScript(("branch" + branch + "/" + best.size()).getBytes()));
            next.addTransaction(chained);
            next.solve();
            add(next);
        }
        return this;
    }

    /** Mines one block that spends an output nobody created (the indexer must refuse it). */
    TestChain mineSpendingUnknownOutput() {
        Block prev = best.get(best.size() - 1);
        TransactionOutPoint unknown = new TransactionOutPoint(3, Sha256Hash.of(new byte[] {42}));
        add(prev.createNextBlock(
                KEY.toAddress(ScriptType.P2WPKH, RegTestParams.get().network()), unknown));
        return this;
    }

    /** Replaces the last {@code depth} blocks with a new branch of {@code newBlocks} blocks. */
    TestChain reorg(int depth, int newBlocks) {
        for (int i = 0; i < depth; i++) {
            best.remove(best.size() - 1);
        }
        branch++;
        return mine(newBlocks);
    }

    private void add(Block block) {
        best.add(block);
        raw.put(block.getHash(), block.serialize());
        for (Transaction tx : block.getTransactions()) {
            for (TransactionOutput out : tx.getOutputs()) {
                everyOutput.put(tx.getTxId() + ":" + out.getIndex(), out.getScriptBytes());
            }
        }
    }

    int height() {
        return best.size() - 1;
    }

    Block blockAt(int height) {
        return best.get(height);
    }

    /** The script of any output this chain ever created, on any branch. */
    byte[] scriptOf(TransactionOutPoint op) {
        return everyOutput.get(op.hash() + ":" + op.index());
    }

    @Override
    public Sha256Hash bestBlockHash() {
        return best.get(best.size() - 1).getHash();
    }

    @Override
    public int bestHeight() {
        return height();
    }

    @Override
    public Optional<Sha256Hash> hashAt(int height) {
        return height >= 0 && height < best.size()
                ? Optional.of(best.get(height).getHash())
                : Optional.empty();
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        return Optional.ofNullable(raw.get(hash)).map(byte[]::clone);
    }
}
