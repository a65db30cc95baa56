package org.blockfilter.regtest.scenario;

import java.util.Comparator;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.scenario.internal.Keys;

/**
 * What chain to build. Immutable; change a copy with the {@code withX} methods. Everything the
 * runner decides (wallets, keys, amounts, output kinds, which outputs are spent together) follows
 * from {@code seed}; block hashes and txids also depend on the node's timestamps.
 *
 * @param seed            the seed of every random choice and every key
 * @param blocks          the tip height to reach (the runner may add a block or two to settle a reorg)
 * @param wallets         number of wallets besides the miner (wallet 0, which receives coinbases)
 * @param minTxsPerBlock  transactions per non-empty block once enough coins are mature, at least
 * @param maxTxsPerBlock  at most
 * @param emptyBlockRate  probability that a block after maturity has no transactions
 * @param addressReuseRate probability that a payment goes to a script the wallet already used
 * @param reorgs          reorgs to force, in increasing height order
 */
public record ScenarioSpec(
        long seed,
        int blocks,
        int wallets,
        int minTxsPerBlock,
        int maxTxsPerBlock,
        double emptyBlockRate,
        double addressReuseRate,
        List<Reorg> reorgs) {

    /** Coinbases need this many confirmations before they can be spent. */
    public static final int COINBASE_MATURITY = 100;

    /**
     * When the tip reaches {@code atHeight}, the last {@code depth} blocks are replaced by a
     * longer branch of {@code depth + 1} blocks; their transactions are mined again afterwards.
     * {@code depth} stays below coinbase maturity so no spent coinbase is ever dropped.
     */
    public record Reorg(int atHeight, int depth) {
        public Reorg {
            if (depth < 1 || depth >= COINBASE_MATURITY) {
                throw new IllegalArgumentException(
                        "reorg depth must be in 1.." + (COINBASE_MATURITY - 1) + ": " + depth);
            }
            if (atHeight <= depth) {
                throw new IllegalArgumentException("reorg at height " + atHeight + " cannot drop " + depth + " blocks");
            }
        }
    }

    public ScenarioSpec {
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks must be >= 1: " + blocks);
        }
        if (wallets < 1) {
            throw new IllegalArgumentException("wallets must be >= 1: " + wallets);
        }
        if (minTxsPerBlock < 0 || maxTxsPerBlock < minTxsPerBlock) {
            throw new IllegalArgumentException(
                    "need 0 <= minTxsPerBlock <= maxTxsPerBlock: " + minTxsPerBlock + ", " + maxTxsPerBlock);
        }
        checkProbability("emptyBlockRate", emptyBlockRate);
        checkProbability("addressReuseRate", addressReuseRate);
        reorgs =
                reorgs.stream().sorted(Comparator.comparingInt(Reorg::atHeight)).toList();
        for (int i = 1; i < reorgs.size(); i++) {
            if (reorgs.get(i).atHeight() == reorgs.get(i - 1).atHeight()) {
                throw new IllegalArgumentException(
                        "two reorgs at height " + reorgs.get(i).atHeight());
            }
        }
    }

    /** A 300-block chain with 10 wallets, 8-16 transactions a block, 5% empty blocks, one reorg of depth 3. */
    public static ScenarioSpec standard(long seed) {
        return new ScenarioSpec(seed, 300, 10, 8, 16, 0.05, 0.3, List.of(new Reorg(200, 3)));
    }

    /** A short chain for quick tests: maturity plus {@code blocksAfterMaturity}, 5 wallets, no reorg. */
    public static ScenarioSpec small(long seed, int blocksAfterMaturity) {
        return new ScenarioSpec(seed, COINBASE_MATURITY + blocksAfterMaturity, 5, 3, 6, 0.1, 0.3, List.of());
    }

    public ScenarioSpec withBlocks(int n) {
        return new ScenarioSpec(
                seed, n, wallets, minTxsPerBlock, maxTxsPerBlock, emptyBlockRate, addressReuseRate, reorgs);
    }

    public ScenarioSpec withWallets(int n) {
        return new ScenarioSpec(
                seed, blocks, n, minTxsPerBlock, maxTxsPerBlock, emptyBlockRate, addressReuseRate, reorgs);
    }

    public ScenarioSpec withTxsPerBlock(int min, int max) {
        return new ScenarioSpec(seed, blocks, wallets, min, max, emptyBlockRate, addressReuseRate, reorgs);
    }

    public ScenarioSpec withEmptyBlockRate(double rate) {
        return new ScenarioSpec(seed, blocks, wallets, minTxsPerBlock, maxTxsPerBlock, rate, addressReuseRate, reorgs);
    }

    public ScenarioSpec withAddressReuseRate(double rate) {
        return new ScenarioSpec(seed, blocks, wallets, minTxsPerBlock, maxTxsPerBlock, emptyBlockRate, rate, reorgs);
    }

    public ScenarioSpec withReorgs(List<Reorg> list) {
        return new ScenarioSpec(
                seed, blocks, wallets, minTxsPerBlock, maxTxsPerBlock, emptyBlockRate, addressReuseRate, list);
    }

    /** The miner's key (wallet 0, key 0), derived from the seed. */
    public ECKey miningKey() {
        return Keys.derive(seed, 0, 0);
    }

    /** The P2WPKH address coinbases pay to: start the backend with it. */
    public Address miningAddress() {
        return miningKey().toAddress(ScriptType.P2WPKH, RegtestNode.PARAMS.network());
    }

    private static void checkProbability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1]: " + p);
        }
    }

    @Override
    public String toString() {
        return "ScenarioSpec[seed=" + seed + ", blocks=" + blocks + ", wallets=" + wallets + ", txs/block="
                + minTxsPerBlock + ".." + maxTxsPerBlock + ", empty=" + emptyBlockRate + ", reuse=" + addressReuseRate
                + ", reorgs=" + reorgs + "]";
    }
}
