package org.blockfilter.regtest.mainnet;

import java.util.Locale;

/**
 * The parameters of a mainnet-profile chain; every figure and its source is in
 * docs/mainnet-profile.md. The chain has two phases: a <em>ramp</em> of fan-out-heavy blocks
 * (batch payouts of many outputs each) that grows the unspent-output set to {@code utxoTarget},
 * then {@code steadyBlocks} blocks shaped like recent mainnet blocks. Immutable; {@code withX}
 * returns a copy.
 *
 * @param seed                the generator seed: equal parameters give byte-identical chains
 * @param utxoTarget          the ramp ends once this many outputs are unspent
 * @param rampOutputsPerBlock outputs per ramp block (about)
 * @param rampOutputsPerTx    mean outputs per ramp transaction (uniform in [mean/2, 3 mean/2])
 * @param steadyBlocks        number of mainnet-like blocks after the ramp
 * @param txPerBlock          mean transactions per steady block (normal, sd 12%)
 * @param reuseShare          probability that an output pays a previously used script of the
 *                            reuser population (besides change sent back to the spent script)
 * @param changeToSelfShare   probability that a transaction with two or more outputs sends its
 *                            change back to the script of its first input
 */
public record MainnetProfile(
        long seed,
        int utxoTarget,
        int rampOutputsPerBlock,
        int rampOutputsPerTx,
        int steadyBlocks,
        int txPerBlock,
        double reuseShare,
        double changeToSelfShare) {

    /** The full profile: 10 million unspent outputs, then 250 blocks of ~3,000 transactions. */
    public static final MainnetProfile MAINNET = new MainnetProfile(1, 10_000_000, 20_000, 100, 250, 3_000, 0.55, 0.40);

    public MainnetProfile {
        require(utxoTarget >= 1_000, "utxoTarget must be >= 1000: " + utxoTarget);
        require(rampOutputsPerBlock >= 100, "rampOutputsPerBlock must be >= 100: " + rampOutputsPerBlock);
        require(
                rampOutputsPerTx >= 2 && rampOutputsPerTx * 3 / 2 <= 2_000,
                "rampOutputsPerTx must be 2..1333: " + rampOutputsPerTx);
        require(rampOutputsPerBlock >= rampOutputsPerTx, "rampOutputsPerBlock must be >= rampOutputsPerTx");
        // 4,000,000 weight units hold about 30,000 P2WPKH outputs.
        require(
                rampOutputsPerBlock <= 25_000,
                "rampOutputsPerBlock must be <= 25000 (block weight): " + rampOutputsPerBlock);
        require(steadyBlocks >= 0, "steadyBlocks must be >= 0: " + steadyBlocks);
        require(txPerBlock >= 10 && txPerBlock <= 5_000, "txPerBlock must be 10..5000 (block weight): " + txPerBlock);
        require(reuseShare >= 0 && reuseShare <= 1, "reuseShare must be in [0, 1]: " + reuseShare);
        require(
                changeToSelfShare >= 0 && changeToSelfShare <= 1,
                "changeToSelfShare must be in [0, 1]: " + changeToSelfShare);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    public MainnetProfile withSeed(long v) {
        return new MainnetProfile(
                v,
                utxoTarget,
                rampOutputsPerBlock,
                rampOutputsPerTx,
                steadyBlocks,
                txPerBlock,
                reuseShare,
                changeToSelfShare);
    }

    public MainnetProfile withUtxoTarget(int v) {
        return new MainnetProfile(
                seed,
                v,
                rampOutputsPerBlock,
                rampOutputsPerTx,
                steadyBlocks,
                txPerBlock,
                reuseShare,
                changeToSelfShare);
    }

    public MainnetProfile withRampOutputsPerBlock(int v) {
        return new MainnetProfile(
                seed, utxoTarget, v, rampOutputsPerTx, steadyBlocks, txPerBlock, reuseShare, changeToSelfShare);
    }

    public MainnetProfile withSteadyBlocks(int v) {
        return new MainnetProfile(
                seed, utxoTarget, rampOutputsPerBlock, rampOutputsPerTx, v, txPerBlock, reuseShare, changeToSelfShare);
    }

    public MainnetProfile withTxPerBlock(int v) {
        return new MainnetProfile(
                seed,
                utxoTarget,
                rampOutputsPerBlock,
                rampOutputsPerTx,
                steadyBlocks,
                v,
                reuseShare,
                changeToSelfShare);
    }

    public MainnetProfile withReuseShare(double v) {
        return new MainnetProfile(
                seed,
                utxoTarget,
                rampOutputsPerBlock,
                rampOutputsPerTx,
                steadyBlocks,
                txPerBlock,
                v,
                changeToSelfShare);
    }

    public MainnetProfile withChangeToSelfShare(double v) {
        return new MainnetProfile(
                seed, utxoTarget, rampOutputsPerBlock, rampOutputsPerTx, steadyBlocks, txPerBlock, reuseShare, v);
    }

    /** A file-name-safe key that identifies the chain (cache files are named by it). */
    public String key() {
        return String.format(
                Locale.ROOT,
                "mp%d-seed%d-utxo%d-ramp%dx%d-steady%dx%d-reuse%.3f-self%.3f",
                ChainGenerator.FORMAT_VERSION,
                seed,
                utxoTarget,
                rampOutputsPerBlock,
                rampOutputsPerTx,
                steadyBlocks,
                txPerBlock,
                reuseShare,
                changeToSelfShare);
    }
}
