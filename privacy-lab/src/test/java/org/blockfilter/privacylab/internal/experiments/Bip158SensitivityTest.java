package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.junit.jupiter.api.Test;

/**
 * The sensitivity study's measurement on chains worked out by hand, and its wallet and chain assumptions checked on
 * small built chains.
 */
class Bip158SensitivityTest {
    private static final double EPS = 1e-12;

    /**
     * A reusing wallet, script 0 (paid in block 0, paid again and spent in block 2):
     *
     * <pre>
     * block 0: {0, 2, 3}
     * block 1: {3, 4}
     * block 2: {0, 2, 5}
     * </pre>
     *
     * It downloads blocks 0 and 2. Consistent candidates: 0 and 2 (both blocks downloaded), 5 (one); 3 is ruled out
     * by block 1. Co-occurrence: {0, 2} tie at two blocks, P_h(1) = 1/2. Graph: no common inputs, the same 1/2.
     */
    @Test
    void reusingWalletTiesWithTheScriptThatSharesBothItsBlocks() {
        Occurrences occ = Occurrences.of(6, new int[][] {{0, 2, 3}, {3, 4}, {0, 2, 5}}, new int[][] {});
        assertArrayEquals(new int[] {0, 2}, Bip158Sensitivity.ownBlocks(occ, 0, 0, 1));
        double[] ph = Bip158Sensitivity.headline(new DownloadAdversary(occ), occ, 0, 0, 1);
        assertEquals(0.5, ph[0], EPS);
        assertEquals(0.5, ph[1], EPS);
    }

    /**
     * A no-reuse wallet: receive address 0 paid in block 0 and spent in block 1 with change to a fresh address 1;
     * its unused change slot 2 appears nowhere.
     *
     * <pre>
     * block 0: {0, 3, 4}
     * block 1: {0, 1, 3, 5}      0 spent, change to 1; 3 paid again by someone else
     * block 2: {5, 6}
     * </pre>
     *
     * Downloads: blocks 0 and 1. Consistent: 0 and 3 (two blocks each), 1 and 4 (one each); 5 is ruled out by
     * block 2. Co-occurrence top group {0, 3}: one of two is the wallet's, P_h(1) = 1/2. Graph: the wallet's
     * transaction clusters 0 with 1 ({0, 1} in blocks 0 and 1, two blocks, score as 3's); clusters {0, 1} and {3}
     * tie at two blocks with 2 real of 3 scripts: P_h(1) = 2/3.
     */
    @Test
    void noReuseWalletIsRankedOnItsReceiveAndSpendBlocks() {
        Occurrences occ = Occurrences.of(7, new int[][] {{0, 3, 4}, {0, 1, 3, 5}, {5, 6}}, new int[][] {{0, 1}});
        assertArrayEquals(new int[] {0, 1}, Bip158Sensitivity.ownBlocks(occ, 0, 0, 3));
        double[] ph = Bip158Sensitivity.headline(new DownloadAdversary(occ), occ, 0, 0, 3);
        assertEquals(0.5, ph[0], EPS);
        assertEquals(2.0 / 3, ph[1], EPS);
    }

    @Test
    void ownBlocksStartAtTheWalletsBirth() {
        Occurrences occ = Occurrences.of(3, new int[][] {{0}, {1}, {0, 2}}, new int[][] {});
        assertArrayEquals(new int[] {2}, Bip158Sensitivity.ownBlocks(occ, 1, 0, 1));
    }

    private static final ProfileShapedChain.Shape SMALL = ProfileShapedChain.Shape.mainnet(
                    60, new int[] {1, 1}, new int[] {6, 6}, 250)
            .withTxPerBlock(300)
            .withPriorOutputs(50_000);

    /**
     * A no-reuse wallet's scripts are each created once and spent at most once, so each is in at most two blocks;
     * the reuse model's address is paid 1 + Geometric(1/2) times and some address is in three or more blocks.
     */
    @Test
    void noReuseWalletsUseEveryScriptOnceAndReuseWalletsDoNot() {
        ProfileShapedChain.Assumptions a = new ProfileShapedChain.Assumptions(
                0.35,
                List.of(ProfileShapedChain.WalletModel.REUSE, ProfileShapedChain.WalletModel.NO_REUSE),
                List.of());
        MainnetLikeChain chain =
                ProfileShapedChain.build(SMALL, a, 11, null, false).chain();
        Occurrences o = chain.occ;
        int reuseMax = 0;
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            boolean reuse = w.index() < 6;
            if (reuse) {
                assertEquals(1, w.n(), "a reuse wallet of N = 1 has one script");
            } else {
                assertTrue(w.n() > ProfileShapedChain.CHANGE_SLOTS, "receive addresses and change slots");
            }
            int used = 0;
            for (int s = w.firstScript(); s < w.firstScript() + w.n(); s++) {
                int blocks = o.scriptStart[s + 1] - o.scriptStart[s];
                if (reuse) {
                    reuseMax = Math.max(reuseMax, blocks);
                } else {
                    assertTrue(blocks <= 2, "no-reuse wallet " + w.index() + " script " + s + " in " + blocks);
                }
                used += blocks > 0 ? 1 : 0;
            }
            assertTrue(used >= 1, "every wallet is paid at least once");
        }
        assertTrue(reuseMax >= 3, "some reused address is in 3 or more blocks: " + reuseMax);
    }

    @Test
    void youngShareMovesSpendsBetweenTheLastBlocksAndTheHistory() {
        ProfileShapedChain.Shape one = ProfileShapedChain.Shape.mainnet(40, new int[] {1}, new int[] {2}, 250)
                .withTxPerBlock(300)
                .withPriorOutputs(50_000);
        long allYoung = ProfileShapedChain.build(
                        one, new ProfileShapedChain.Assumptions(1, List.of(), List.of()), 5, null, false)
                .stats()
                .priorSpends();
        long noneYoung = ProfileShapedChain.build(
                        one, new ProfileShapedChain.Assumptions(0, List.of(), List.of()), 5, null, false)
                .stats()
                .priorSpends();
        // All young: after block 0 a spend reaches the history only when the last blocks' outputs are all spent.
        assertTrue(allYoung * 4 < noneYoung, allYoung + " prior spends all young, " + noneYoung + " none young");
        // The profile's own share is the default and gives the same chain as the plain build.
        assertEquals(
                ProfileShapedChain.build(one, 5, null).stats(),
                ProfileShapedChain.build(one, ProfileShapedChain.Assumptions.EXP5, 5, null, true)
                        .stats());
    }

    @Test
    void syncedRangePlacesEachGroupsBirthAtTipMinusItsRange() {
        ProfileShapedChain.Shape two = ProfileShapedChain.Shape.mainnet(40, new int[] {1, 1}, new int[] {2, 2}, 250)
                .withTxPerBlock(300)
                .withPriorOutputs(50_000);
        MainnetLikeChain chain = ProfileShapedChain.build(
                        two, new ProfileShapedChain.Assumptions(0.35, List.of(), List.of(10, 40)), 5, null, false)
                .chain();
        assertEquals(
                List.of(30, 30, 0, 0),
                chain.wallets().stream().map(MainnetLikeChain.Wallet::birth).toList());
        assertThrows(
                IllegalArgumentException.class,
                () -> ProfileShapedChain.build(
                        two, new ProfileShapedChain.Assumptions(0.35, List.of(), List.of(10, 41)), 5, null, false));
        assertThrows(
                IllegalArgumentException.class, () -> new ProfileShapedChain.Assumptions(1.5, List.of(), List.of()));
    }
}
