package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.junit.jupiter.api.Test;

/**
 * Every adversary of experiment 5 on a five-block chain where each answer is worked out by hand.
 *
 * <pre>
 * block 0: {0, 2, 3}      wallet script 0 paid
 * block 1: {4, 5}
 * block 2: {0, 1, 2, 6}   wallet scripts 0 and 1 spent together
 * block 3: {1, 7, 8}      7 and 8 spent together
 * block 4: {3, 9}
 * </pre>
 *
 * The wallet owns scripts 0 and 1 and downloads blocks 0, 2 and 3. Script 2 has the wallet's pattern (two blocks,
 * both downloaded); script 3 has one block that was not downloaded.
 */
class DownloadAdversaryTest {
    private static final Occurrences CHAIN = Occurrences.of(
            10, new int[][] {{0, 2, 3}, {4, 5}, {0, 1, 2, 6}, {1, 7, 8}, {3, 9}}, new int[][] {{0, 1}, {7, 8}});
    private static final double EPS = 1e-12;

    @Test
    void fullObserverUniformAdversaryPicksAmongConsistentScripts() {
        DownloadAdversary.Result r = new DownloadAdversary(CHAIN).rank(new int[] {0, 2, 3}, 0, 0, 2, 1.0);
        // consistent: 0, 1, 2, 6, 7, 8 (3 has block 4, not downloaded)
        assertEquals(6, r.uniform().candidates());
        assertEquals(2.0 / 6, r.uniform().ph(1), EPS);
        assertEquals(2.0 / 6 * 1.0 / 5, r.uniform().ph(2), EPS);
    }

    @Test
    void coOccurrenceRanksScriptsSeenInMoreDownloadedBlocksFirst() {
        DownloadAdversary.Result r = new DownloadAdversary(CHAIN).rank(new int[] {0, 2, 3}, 0, 0, 2, 1.0);
        // top group: 0, 1, 2 (two downloaded blocks each); then 6, 7, 8 (one each)
        assertArrayEquals(new long[] {2, 0}, r.cooccurrence().real());
        assertArrayEquals(new long[] {1, 3}, r.cooccurrence().fake());
        assertEquals(2.0 / 3, r.cooccurrence().ph(1), EPS);
        assertEquals(2.0 / 3 * 1.0 / 2, r.cooccurrence().ph(2), EPS);
        assertEquals(0.0, r.cooccurrence().ph(3), EPS);
    }

    @Test
    void transactionGraphRanksTheWalletsCommonInputClusterFirst() {
        DownloadAdversary.Result r = new DownloadAdversary(CHAIN).rank(new int[] {0, 2, 3}, 0, 0, 2, 1.0);
        // clusters: {0, 1} in blocks 0, 2, 3 (three downloaded) > {2} (two) > {6}, {7, 8} (one)
        assertEquals(1.0, r.graph().ph(1), EPS);
        assertEquals(1.0, r.graph().ph(2), EPS);
        assertEquals(0.0, r.graph().ph(3), EPS);
        assertEquals(6, r.graph().candidates()); // 0, 1, 2, 6, 7, 8; cluster {3} is ruled out
    }

    @Test
    void partialObserverScoresByLikelihoodRatio() {
        // One of two peers saw blocks 0 and 2: pW = 1/2, pO = 2/5.
        DownloadAdversary.Result r = new DownloadAdversary(CHAIN).rank(new int[] {0, 2}, 0, 0, 2, 0.5);
        // any-block candidates: 0, 1, 2, 3, 6
        assertEquals(2.0 / 5, r.uniform().ph(1), EPS);
        // best pattern (2 of 2 observed): scripts 0 and 2, one real and one not
        assertEquals(0.5, r.cooccurrence().ph(1), EPS);
        assertEquals(0.0, r.cooccurrence().ph(2), EPS);
        double pw = 0.5;
        double po = 0.4;
        assertEquals(2 * Math.log(pw / po), DownloadAdversary.score(2, 2, pw, po), EPS);
        assertEquals(Math.log(pw / po) + Math.log((1 - pw) / (1 - po)), DownloadAdversary.score(1, 2, pw, po), EPS);
        assertEquals(Double.NEGATIVE_INFINITY, DownloadAdversary.score(1, 2, 1.0, po));
    }

    @Test
    void unionOfTwoSyncsSeesMoreWalletBlocksThanEitherSyncOrTheirIntersection() {
        // One of two peers; sync 1 it served blocks 0 and 2, sync 2 blocks 2 and 3 (the peer assignment is redrawn).
        int[] sync1 = {0, 2};
        int[] sync2 = {2, 3};
        int[] union = Bip158Experiment.union(sync1, sync2);
        assertArrayEquals(new int[] {0, 2, 3}, union);
        // A wallet block is seen in at least one sync with probability 1 - (1 - 1/2)^2 = 3/4 (7/16 at 4 peers).
        double pw = Bip158Experiment.seenInAny(2, 2);
        assertEquals(0.75, pw, EPS);
        assertEquals(7.0 / 16, Bip158Experiment.seenInAny(4, 2), EPS);
        assertEquals(1.0, Bip158Experiment.seenInAny(1, 2), EPS);
        DownloadAdversary.Result r = new DownloadAdversary(CHAIN).rank(union, 0, 0, 2, pw);
        // pO = 3/5. Patterns (o of t): 0, 1, 2: 2 of 2, score 2 ln(1.25); 6, 7, 8: 1 of 1, ln(1.25);
        // 3: 1 of 2, ln(1.25) + ln(0.25 / 0.4) < 0. Top group {0, 1, 2}: two of three are the wallet's.
        assertArrayEquals(new long[] {2, 0, 0}, r.cooccurrence().real());
        assertArrayEquals(new long[] {1, 3, 1}, r.cooccurrence().fake());
        assertEquals(2.0 / 3, r.cooccurrence().ph(1), EPS);
        assertEquals(2.0 / 3 * 1.0 / 2, r.cooccurrence().ph(2), EPS);
        // The wallet's cluster {0, 1} has all three of its blocks in the union: ranked alone at the top.
        assertEquals(1.0, r.graph().ph(1), EPS);
        assertEquals(1.0, r.graph().ph(2), EPS);
        assertEquals(0.0, r.graph().ph(3), EPS);
        // One sync alone (blocks 0, 2 at pW = 1/2): 1/2, as above. The intersection (block 2, pW = 1/4, pO = 1/5):
        // script 6 (1 of 1) outranks the wallet's (1 of 2 each), so P_h(1) = 0.
        DownloadAdversary.Result one = new DownloadAdversary(CHAIN).rank(sync1, 0, 0, 2, 0.5);
        assertEquals(0.5, one.cooccurrence().ph(1), EPS);
        int[] both = Bip158Experiment.intersect(sync1, sync2);
        DownloadAdversary.Result inter = new DownloadAdversary(CHAIN).rank(both, 0, 0, 2, 0.25);
        assertEquals(0.0, inter.cooccurrence().ph(1), EPS);
    }

    @Test
    void blocksBeforeTheSyncedRangeDoNotCountAgainstAScript() {
        // Synced from block 2: script 0's block 0 is out of range, so 0 is consistent with one block (2).
        DownloadAdversary.Result r = new DownloadAdversary(CHAIN).rank(new int[] {2, 3}, 2, 0, 2, 1.0);
        // in range [2, 5): 0 {2}, 1 {2,3}, 2 {2}, 6 {2}, 7 {3}, 8 {3}; 3 is not in an observed block
        assertEquals(6, r.uniform().candidates());
        assertEquals(1.0, r.cooccurrence().ph(1), EPS); // script 1 alone has two downloaded blocks
    }

    @Test
    void timingDropsOffScanDecoysAndReSyncsDropRedrawnOnes() {
        int[] matched = {0, 2, 3};
        Bip158Experiment.Setting random = new Bip158Experiment.Setting(Bip158Experiment.Policy.RANDOM, 1);
        Bip158Experiment.Downloads d =
                Bip158Experiment.downloads(5, matched, 0, random, 1, new java.util.SplittableRandom(3));
        assertEquals(5, d.blocks().length); // 3 matched + min(free = 2, 3 x 1) decoys
        int[] timed = Bip158Experiment.observe(d, 1, new java.util.SplittableRandom(1), true);
        assertArrayEquals(matched, timed);
        assertArrayEquals(matched, Bip158Experiment.intersect(matched, new int[] {0, 1, 2, 3, 4}));
        assertArrayEquals(new int[] {0, 3}, Bip158Experiment.intersect(new int[] {0, 1, 3}, new int[] {0, 3, 4}));
    }

    @Test
    void seededDecoysRepeatAcrossSyncsAndRandomOnesDoNot() {
        int[] matched = {10, 500, 900};
        Bip158Experiment.Setting seeded = new Bip158Experiment.Setting(Bip158Experiment.Policy.SEEDED, 4);
        Bip158Experiment.Setting random = new Bip158Experiment.Setting(Bip158Experiment.Policy.RANDOM, 4);
        int[] s1 = Bip158Experiment.downloads(1000, matched, 0, seeded, 77, new java.util.SplittableRandom(1))
                .blocks();
        int[] s2 = Bip158Experiment.downloads(1000, matched, 0, seeded, 77, new java.util.SplittableRandom(2))
                .blocks();
        assertArrayEquals(s1, s2);
        int[] r1 = Bip158Experiment.downloads(1000, matched, 0, random, 77, new java.util.SplittableRandom(1))
                .blocks();
        int[] r2 = Bip158Experiment.downloads(1000, matched, 0, random, 77, new java.util.SplittableRandom(2))
                .blocks();
        assertEquals(15, r1.length);
        assertEquals(matched.length, Bip158Experiment.intersect(r1, r2).length, 2.0); // decoys rarely repeat
    }

    @Test
    void tiesAreBrokenUniformly() {
        DownloadAdversary.Ranking r = new DownloadAdversary.Ranking(new long[] {3, 1}, new long[] {1, 0});
        assertEquals(3.0 / 4, r.ph(1), EPS);
        assertEquals(3.0 / 4 * 2.0 / 3, r.ph(2), EPS);
        assertEquals(0.0, r.ph(4), EPS); // the top group of 4 holds a non-wallet script
        assertEquals(0.0, new DownloadAdversary.Ranking(new long[0], new long[0]).ph(1), EPS);
    }
}
