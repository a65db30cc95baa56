package org.blockfilter.regtest.mainnet;

/**
 * The mainnet statistics the profile's blocks follow, as samplers: one definition of each distribution, used by
 * {@link ChainGenerator} and by privacy-lab's script-level chain model (experiment 5), so that the two cannot
 * disagree. Every figure and its source (or "estimate") is in docs/mainnet-profile.md, "Statistics, sources and
 * estimates". The reuse and change-to-self shares are parameters of {@link MainnetProfile} ({@code reuseShare},
 * {@code changeToSelfShare}; {@link MainnetProfile#MAINNET} has the defaults).
 *
 * <p>Each sampler consumes a fixed pattern of draws from the {@link Uniform} it is given, documented on the
 * method: the generator's bytes are a function of that pattern, so it must not change without bumping
 * {@link ChainGenerator#FORMAT_VERSION} (ChainGeneratorTest pins the bytes of a small profile). Stateless and
 * thread-safe.
 */
public final class MainnetStatistics {
    private MainnetStatistics() {}

    /** A source of uniform draws. The generator's SplitMix64 and {@code java.util.SplittableRandom} both fit. */
    public interface Uniform {
        /** Uniform in [0, 1). */
        double nextDouble();

        /** Uniform in [0, bound). */
        int nextInt(int bound);
    }

    /** Reusers: a population of scripts paid again and again, drawn log-uniformly by rank ({@link #reuserRank}). */
    public static final int REUSERS = 3_000;

    /** Share of spends drawn from the outputs of the last {@link #YOUNG_BLOCKS} blocks. */
    public static final double YOUNG_SHARE = 0.35;

    /** The young window of the spend-age law, in blocks (about an hour). */
    public static final int YOUNG_BLOCKS = 6;

    /** Share of transactions that carry an OP_RETURN output (not in BIP 158 filters). */
    public static final double OP_RETURN_SHARE = 0.05;

    /** Relative spread (sd / mean) of the transactions per block. */
    public static final double TX_PER_BLOCK_SD = 0.12;

    /** Output type shares in {@link ScriptType} order: P2WPKH, P2TR, P2PKH, P2SH, P2WSH. */
    private static final double[] TYPE_SHARES = {0.54, 0.21, 0.08, 0.12, 0.05};

    /** The share of new outputs of {@code type} (0 for OP_RETURN, which {@link #OP_RETURN_SHARE} covers). */
    public static double typeShare(ScriptType type) {
        return type.ordinal() < TYPE_SHARES.length ? TYPE_SHARES[type.ordinal()] : 0;
    }

    /**
     * Transactions in a block (coinbase included): normal with mean {@code mean} and sd 12%, clamped to
     * [mean/2, 3 mean/2]. Two {@code nextDouble} draws (Box-Muller).
     */
    public static int txPerBlock(Uniform r, int mean) {
        double u = Math.max(r.nextDouble(), 1e-12);
        double v = r.nextDouble();
        double g = mean + mean * TX_PER_BLOCK_SD * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        int target = (int) Math.round(g);
        return Math.max(mean / 2, Math.min(target, mean * 3 / 2));
    }

    /**
     * Inputs per transaction: 1 (70%), 2 (15%), 3 (5%), 4-9 (8%), 10-30 (2%); mean ~2.07. One {@code nextDouble},
     * then one {@code nextInt} for the two ranges.
     */
    public static int inputsPerTx(Uniform r) {
        double u = r.nextDouble();
        if (u < 0.70) {
            return 1;
        } else if (u < 0.85) {
            return 2;
        } else if (u < 0.90) {
            return 3;
        } else if (u < 0.98) {
            return between(r, 4, 9);
        }
        return between(r, 10, 30);
    }

    /**
     * Outputs per transaction (OP_RETURN not counted): 1 (20%), 2 (66%), 3 (7%), 4-10 (5%), 11-50 (2%); mean ~2.69.
     * One {@code nextDouble}, then one {@code nextInt} for the two ranges.
     */
    public static int outputsPerTx(Uniform r) {
        double u = r.nextDouble();
        if (u < 0.20) {
            return 1;
        } else if (u < 0.86) {
            return 2;
        } else if (u < 0.93) {
            return 3;
        } else if (u < 0.98) {
            return between(r, 4, 10);
        }
        return between(r, 11, 50);
    }

    /** The mean of {@link #outputsPerTx}. */
    public static double meanOutputsPerTx() {
        return 0.20 + 0.66 * 2 + 0.07 * 3 + 0.05 * 7 + 0.02 * 30.5;
    }

    /** The mean of {@link #inputsPerTx}. */
    public static double meanInputsPerTx() {
        return 0.70 + 0.15 * 2 + 0.05 * 3 + 0.08 * 6.5 + 0.02 * 20;
    }

    /** The script type of a new fresh output, by {@link #typeShare}. One {@code nextDouble}. */
    public static ScriptType outputType(Uniform r) {
        double u = r.nextDouble();
        for (int t = 0; t < TYPE_SHARES.length; t++) {
            u -= TYPE_SHARES[t];
            if (u < 0) {
                return ScriptType.ofOrdinal(t);
            }
        }
        return ScriptType.P2WPKH;
    }

    /**
     * The rank in [0, {@link #REUSERS}) of the reuser an output pays: log-uniform, so rank 0 gets ~12% of the
     * payments. One {@code nextDouble}.
     */
    public static int reuserRank(Uniform r) {
        return (int) (Math.exp(r.nextDouble() * Math.log(REUSERS + 1.0)) - 1);
    }

    /**
     * Whether a spend is young (drawn uniformly from the outputs of the last {@link #YOUNG_BLOCKS} blocks) rather
     * than old ({@link #oldSpendAge}). One {@code nextDouble}.
     */
    public static boolean youngSpend(Uniform r) {
        return r.nextDouble() < YOUNG_SHARE;
    }

    /**
     * The age of an old spend, counted in outputs back from the first output of the spending block: log-uniform in
     * [1, {@code outputsBefore}] (every output ever created is a candidate; the spend takes the next unspent one
     * at or after it). One {@code nextDouble}.
     */
    public static long oldSpendAge(Uniform r, long outputsBefore) {
        return Math.max(1, (long) Math.exp(r.nextDouble() * Math.log(outputsBefore)));
    }

    private static int between(Uniform r, int lo, int hi) {
        return lo + r.nextInt(hi - lo + 1);
    }
}
