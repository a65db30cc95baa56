package org.blockfilter.privacylab.internal.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.regtest.mainnet.MainnetProfile;
import org.blockfilter.regtest.mainnet.MainnetStatistics;
import org.junit.jupiter.api.Test;

/** Experiment 5's chain drawn from the mainnet profile's samplers: shape, spends, wallets, determinism. */
class MainnetLikeProfileShapedChainTest {
    private static final ProfileShapedChain.Shape SMALL = ProfileShapedChain.Shape.mainnet(
                    60, new int[] {1, 5}, new int[] {4, 4}, 250)
            .withTxPerBlock(300)
            .withPriorOutputs(50_000);

    @Test
    void shapeIsTheMainnetProfilesOwn() {
        ProfileShapedChain.Shape s = ProfileShapedChain.Shape.mainnet(10, new int[] {1}, new int[] {1}, 250);
        assertEquals(MainnetProfile.MAINNET.txPerBlock(), s.txPerBlock());
        assertEquals(MainnetProfile.MAINNET.utxoTarget(), s.priorOutputs());
        assertEquals(MainnetProfile.MAINNET.reuseShare(), s.reuseShare());
        assertEquals(MainnetProfile.MAINNET.changeToSelfShare(), s.changeToSelfShare());
    }

    @Test
    void transactionsFollowTheSharedInputAndOutputLaws() {
        ProfileShapedChain.Built b = ProfileShapedChain.build(SMALL, 3, null);
        ProfileShapedChain.Stats s = b.stats();
        double txs = s.txs() - SMALL.blocks(); // without coinbases
        // The profile's means (docs/mainnet-profile.md): 2.07 inputs and 2.69 outputs per transaction; the
        // wallets' payments add a few outputs. Loose bounds: the laws' means, not a fit.
        assertEquals(MainnetStatistics.meanInputsPerTx(), s.inputs() / txs, 0.15);
        assertEquals(MainnetStatistics.meanOutputsPerTx(), (s.outputs() - SMALL.blocks()) / txs, 0.15);
        assertEquals(SMALL.txPerBlock(), s.txs() / (double) SMALL.blocks(), 0.1 * SMALL.txPerBlock());
        assertTrue(s.priorSpends() > 0 && s.priorSpends() < s.inputs());
    }

    @Test
    void spentOutputsAppearAgainAndReusersRecur() {
        MainnetLikeChain chain = ProfileShapedChain.build(SMALL, 3, null).chain();
        Occurrences o = chain.occ;
        int recurring = 0;
        for (int r = 0; r < MainnetStatistics.REUSERS; r++) {
            recurring += o.scriptStart[r + 1] - o.scriptStart[r] > 1 ? 1 : 0;
        }
        assertTrue(o.scriptStart[1] - o.scriptStart[0] > SMALL.blocks() / 2, "rank 0 is paid in most blocks");
        assertTrue(recurring > 100, recurring + " reusers in more than one block");
        int firstFresh = MainnetStatistics.REUSERS
                + chain.wallets().stream().mapToInt(MainnetLikeChain.Wallet::n).sum();
        int twice = 0;
        for (int s = firstFresh; s < o.scripts; s++) {
            twice += o.scriptStart[s + 1] - o.scriptStart[s] >= 2 ? 1 : 0;
        }
        assertTrue(twice > (o.scripts - firstFresh) / 10, twice + " fresh scripts created and spent in the chain");
    }

    @Test
    void clustersStayTransactionSizedAndWalletsClusterTheirOwnInputs() {
        MainnetLikeChain chain = ProfileShapedChain.build(SMALL, 5, null).chain();
        Occurrences o = chain.occ;
        int largest = 0;
        for (int c = 0; c < o.clusters; c++) {
            largest = Math.max(largest, o.clusterStart[c + 1] - o.clusterStart[c]);
        }
        // A background transaction has at most 30 inputs; first spends only, so no chain-wide cluster.
        assertTrue(largest <= 30 * 2, "largest cluster " + largest);
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            for (int s = w.firstScript(); s < w.firstScript() + w.n(); s++) {
                int c = o.cluster[s];
                for (int i = o.clusterStart[c]; i < o.clusterStart[c + 1]; i++) {
                    int m = o.clusterMembers[i];
                    assertTrue(
                            m >= w.firstScript() && m < w.firstScript() + w.n(),
                            "wallet " + w.index() + " clustered with a stranger " + m);
                }
            }
        }
    }

    @Test
    void filtersHoldExactlyTheBlocksScriptsAndAreDeterministic() {
        ModelChainChecks.assertFiltersExactAndDeterministic(
                seed -> ProfileShapedChain.build(SMALL, seed, null).chain());
    }

    @Test
    void fastSyncEqualsMatchAnyAndFindsEveryOwnBlock() {
        ModelChainChecks.assertFastSyncEqualsMatchAny(
                ProfileShapedChain.build(SMALL, 7, null).chain());
    }
}
