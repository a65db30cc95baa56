package org.blockfilter.server.index;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.testing.RegtestChainBuilder;

/**
 * A {@link BlockSource} over the shared {@link RegtestChainBuilder}, shaped for indexer tests:
 * each block spends the previous block's coinbase, then spends that spend's first output in the
 * same block to a P2PKH output plus an OP_RETURN tagged with its branch, so reorg branches differ
 * and the indexer has to resolve prevouts created in the same block. Every instance mines blocks
 * of its own (two sources share only the genesis block). Not thread-safe; for tests on one thread.
 */
final class MinedChainSource implements BlockSource {
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private final RegtestChainBuilder chain = new RegtestChainBuilder(INSTANCES.incrementAndGet() * 65_537);
    private final Map<Sha256Hash, byte[]> everyBlock = new HashMap<>();
    private int branch;

    MinedChainSource() {
        record(chain.tip());
    }

    private void record(Block b) {
        everyBlock.put(b.getHash(), b.serialize());
    }

    /** Mines {@code n} blocks on the tip. */
    MinedChainSource mine(int n) {
        for (int i = 0; i < n; i++) {
            Transaction prevCoinbase = chain.tip().getTransactions().get(0);
            Transaction spend =
                    chain.spend(prevCoinbase.getOutput(0), chain.minerScript(), Coin.COIN.multiply(49), null);
            Transaction chained = chain.spend(
                    spend.getOutput(0),
                    ScriptBuilder.createP2PKHOutputScript(chain.minerKey()),
                    Coin.COIN,
                    ("branch" + branch + "/" + (chain.tipHeight() + 1)).getBytes());
            record(chain.mineBlock(List.of(spend, chained)));
        }
        return this;
    }

    /** Mines one block that spends an output nobody created (the indexer must refuse it). */
    MinedChainSource mineSpendingUnknownOutput() {
        Transaction t = new Transaction();
        t.addInput(Sha256Hash.of(new byte[] {42}), 3, ScriptBuilder.createEmpty());
        t.addOutput(Coin.COIN, chain.minerScript());
        record(chain.mineBlock(List.of(t)));
        return this;
    }

    /** Replaces the last {@code depth} blocks with a new branch of {@code newBlocks} blocks. */
    MinedChainSource reorg(int depth, int newBlocks) {
        chain.disconnect(depth);
        branch++;
        return mine(newBlocks);
    }

    int height() {
        return chain.tipHeight();
    }

    Block blockAt(int height) {
        return chain.block(height);
    }

    /** The script of any output this chain ever created, on any branch. */
    byte[] scriptOf(TransactionOutPoint op) {
        return chain.scriptOf(op);
    }

    @Override
    public Sha256Hash bestBlockHash() {
        return chain.tip().getHash();
    }

    @Override
    public int bestHeight() {
        return chain.tipHeight();
    }

    @Override
    public Optional<Sha256Hash> hashAt(int height) {
        return height >= 0 && height <= chain.tipHeight()
                ? Optional.of(chain.block(height).getHash())
                : Optional.empty();
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        // Blocks that left the best chain stay retrievable, as from a node.
        return Optional.ofNullable(everyBlock.get(hash)).map(byte[]::clone);
    }
}
