package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Progress;

/**
 * Experiment 8's long chain: per chain seed, weeks of blocks of the main chain's statistics, each wallet size once on
 * the reuse and once on the no-reuse model, every wallet born at the chain's first block and synced block by block
 * over all of it ({@link FetchPolicyExperiment#LONG_SPECS}). Fewer wallets than the main chain: a chain this long
 * costs minutes to build per seed. Stateless.
 */
final class FetchPolicyLongChain {
    private FetchPolicyLongChain() {}

    /** Two weeks of blocks at mainnet's 144 a day: the long chain's length in full mode. */
    static final int BLOCKS = 2016;

    /** The long chain's wallets per (N, wallet model) per chain seed in full mode (quick mode: 1). */
    static final int WALLETS_PER_GROUP = 2;

    /** The long chain's settings ({@link FetchPolicyExperiment#LONG_SPECS}), at one source. */
    static List<FetchPolicyExperiment.Setting> settings() {
        return FetchPolicyExperiment.LONG_SPECS.stream()
                .map(s -> new FetchPolicyExperiment.Setting(1, s))
                .toList();
    }

    /**
     * The main chain's statistics and wallet sizes over {@link #BLOCKS} blocks, each size in two groups (the first
     * half of the groups on the reuse model, the second on no reuse: {@link #assumptions}); quick mode: the quick
     * chain's small blocks, twice its length.
     */
    static ProfileShapedChain.Shape shape(boolean quick) {
        ProfileShapedChain.Shape main = FetchPolicyExperiment.shape(quick);
        int[] sizes = main.walletSizes();
        int[] twice = new int[2 * sizes.length];
        for (int g = 0; g < sizes.length; g++) {
            twice[g] = sizes[g];
            twice[sizes.length + g] = sizes[g];
        }
        int[] wallets = new int[twice.length];
        Arrays.fill(wallets, quick ? 1 : WALLETS_PER_GROUP);
        return new ProfileShapedChain.Shape(
                quick ? 2 * main.blocks() : BLOCKS,
                main.txPerBlock(),
                main.priorOutputs(),
                main.reuseShare(),
                main.changeToSelfShare(),
                twice,
                wallets,
                main.bytesPerElement());
    }

    /**
     * Experiment 5's assumptions, the first half of the wallet groups on the reuse model and the second on the no-reuse
     * model, every wallet born at the chain's first block (it syncs the whole chain).
     */
    static ProfileShapedChain.Assumptions assumptions(ProfileShapedChain.Shape shape) {
        int groups = shape.walletSizes().length;
        List<ProfileShapedChain.WalletModel> models = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            models.add(g < groups / 2 ? ProfileShapedChain.WalletModel.REUSE : ProfileShapedChain.WalletModel.NO_REUSE);
        }
        return new ProfileShapedChain.Assumptions(
                ProfileShapedChain.Assumptions.EXP5.youngShare(), models, Collections.nCopies(groups, shape.blocks()));
    }

    /** Each wallet's model in wallet order, as {@link ProfileShapedChain} numbers them. */
    static ProfileShapedChain.WalletModel[] walletModels(
            ProfileShapedChain.Shape shape, ProfileShapedChain.Assumptions assumptions) {
        List<ProfileShapedChain.WalletModel> out = new ArrayList<>();
        for (int g = 0; g < shape.walletSizes().length; g++) {
            for (int k = 0; k < shape.walletsPerSize()[g]; k++) {
                out.add(assumptions.model(g));
            }
        }
        return out.toArray(ProfileShapedChain.WalletModel[]::new);
    }

    /** One chain seed's long chain: its raw rows (wallet then setting order), wallets and costs in seconds. */
    record Part(List<Object[]> rows, int wallets, double buildSeconds, double syncSeconds) {}

    /** Builds chain seed {@code c}'s long chain and syncs each of its wallets under {@link #settings()}. */
    static Part run(Lab lab, int c) {
        ProfileShapedChain.Shape shape = shape(lab.quick());
        ProfileShapedChain.Assumptions assumptions = assumptions(shape);
        long t0 = System.nanoTime();
        long seed = lab.seed("exp8/long-chain", c);
        ProfileShapedChain.Built built = ProfileShapedChain.build(
                shape,
                assumptions,
                seed,
                new Progress(lab.log(), "exp8: chain " + c + ", long model,", 2L * shape.blocks()),
                true);
        MainnetLikeChain chain = built.chain();
        FetchPolicyRun.World world = FetchPolicyRun.world(
                chain,
                walletModels(shape, assumptions),
                FetchPolicyExperiment.walletN(shape),
                lab,
                seed, // its wallets' keys: not those of the main chain's wallets of the same index
                new Progress(lab.log(), "exp8: chain " + c + ", long real blocks,", shape.blocks()));
        double build = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        List<Object[]> rows = FetchPolicyExperiment.measure(lab, world, built.changes(), c, settings(), "long ");
        return new Part(rows, chain.wallets().size(), build, (System.nanoTime() - t1) / 1e9);
    }
}
