package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.junit.jupiter.api.Test;

/** Experiment 8's stronger adversaries on chains where each answer is worked out by hand. */
class FetchPolicyAdversariesTest {
    private static final double EPS = 1e-9;

    /**
     * Ten blocks; the wallet's script 0 is in blocks 0..7, script 5 in blocks 0 and 1 only, block b also holds script
     * 10 + b. One of four sources saw blocks 0 and 1 (p_wallet = 1/4, p_other = 2/10). Blind co-occurrence: script 5
     * scores 2 ln(0.25/0.2) = 0.446, script 0 the same plus 6 ln(0.75/0.8) = 0.059, so 5 wins: P_h(1) = 0. Knowing a
     * decoy is in at most 6 blocks, script 0 (8 blocks) cannot be one and ranks first: P_h(1) = 1.
     */
    @Test
    void aPolicyAwareAdversaryRanksWhatCannotBeADecoyFirst() {
        int[][] blocks = new int[10][];
        for (int b = 0; b < 10; b++) {
            blocks[b] = b < 2 ? new int[] {0, 5, 10 + b} : b < 8 ? new int[] {0, 10 + b} : new int[] {10 + b};
        }
        Occurrences chain = Occurrences.of(20, blocks, new int[0][]);
        DownloadAdversary adv = new DownloadAdversary(chain);
        int[] seen = {0, 1};
        assertEquals(0.0, adv.rank(seen, 0, 0, 1, 0.25, true).cooccurrence().ph(1), EPS);
        DownloadAdversary.Result aware =
                adv.rank(seen, 0, 0, 1, 0.25, true, FetchPolicy.DECOY_MAX_BLOCKS, FetchPolicy.DECOY_MAX_BLOCKS);
        assertEquals(1.0, aware.cooccurrence().ph(1), EPS);
        assertEquals(1.0, aware.graph().ph(1), EPS);
        // certain of the one script that cannot be a decoy: no uncertainty left
        assertEquals(0.0, aware.cooccurrence().entropyBits(), EPS);
        // with cluster decoys (up to 32 blocks) 8 blocks prove nothing: blind again
        DownloadAdversary.Result clusters =
                adv.rank(seen, 0, 0, 1, 0.25, true, FetchPolicy.CLUSTER_MAX_BLOCKS, FetchPolicy.CLUSTER_MAX_BLOCKS);
        assertEquals(0.0, clusters.cooccurrence().ph(1), EPS);
        assertArrayEquals(
                new int[] {FetchPolicy.CLUSTER_MAX_BLOCKS, FetchPolicy.CLUSTER_MAX_BLOCKS},
                FetchPolicyAdversaries.thresholds(FetchPolicy.parse("decoys=4,clusters=2")));
        assertArrayEquals(
                new int[] {FetchPolicy.DECOY_MAX_BLOCKS, FetchPolicy.DECOY_MAX_BLOCKS},
                FetchPolicyAdversaries.thresholds(FetchPolicy.DEFAULT));
    }

    /**
     * DownloadAdversaryTest's five-block chain (wallet: scripts 0 and 1, spent together in block 2; 7 and 8 spent
     * together in block 3), seen by an observer that can tell only blocks 0, 2 and 4 (1 and 3 have sizes other blocks
     * share) and saw 0 and 2 downloaded. Counting visible blocks only, script 1 (blocks 2, 3) is in 1 visible block,
     * observed: still a candidate; cluster {0, 1} is in visible blocks 0 and 2, both observed, tying with script 2
     * (blocks 0, 2): graph P_h(1) = 2/3. Blind to visibility, block 3 rules the cluster out and script 2 wins: 0.
     */
    @Test
    void aSizeObserverCountsOnlyTheBlocksItCanTell() {
        Occurrences chain = Occurrences.of(
                10, new int[][] {{0, 2, 3}, {4, 5}, {0, 1, 2, 6}, {1, 7, 8}, {3, 9}}, new int[][] {{0, 1}, {7, 8}});
        DownloadAdversary adv = new DownloadAdversary(chain);
        boolean[] visible = {true, false, true, false, true};
        DownloadAdversary.Result r =
                adv.rank(new int[] {0, 2}, 0, 0, 2, 1.0, true, Integer.MAX_VALUE, Integer.MAX_VALUE, visible);
        assertEquals(2.0 / 3, r.graph().ph(1), EPS);
        // co-occurrence: {0, 2} (two observed) above {1, 6} (one); 3 is ruled out by block 4
        assertEquals(1.0 / 2, r.cooccurrence().ph(1), EPS);
        assertEquals(4, r.cooccurrence().candidates());
        assertEquals(0.0, adv.rank(new int[] {0, 2}, 0, 0, 2, 1.0, true).graph().ph(1), EPS);
    }

    /** Sizes 5, 7, 5, 9: blocks 1 and 3 are known by size, 0 and 2 are not; in 498-byte Tor cells all four look alike. */
    @Test
    void aBlockIsKnownBySizeWhenNoOtherBlockOfTheRangeHasItsSize() {
        int[] sizes = {500, 700, 500, 900};
        assertArrayEquals(
                new boolean[] {false, true, false, true}, FetchPolicyAdversaries.knownBySize(sizes, 0, false));
        // from block 1 on, 500 is unique too
        assertArrayEquals(new boolean[] {false, true, true, true}, FetchPolicyAdversaries.knownBySize(sizes, 1, false));
        // ceil((bytes + 24) / 498) = 2 cells for all four
        assertArrayEquals(
                new boolean[] {false, false, false, false}, FetchPolicyAdversaries.knownBySize(sizes, 0, true));
    }

    /**
     * The posterior entropy: on DownloadAdversaryTest's chain with every download seen (blocks 0, 2, 3; p_other =
     * 3/5), co-occurrence has three candidates with two observed blocks (likelihood ratio (5/3)^2 each) and three with
     * one (5/3): p = 0.2083 and 0.125, H = 2.5394 bits; the uniform adversary over its 6 candidates: log2 6.
     */
    @Test
    void theEntropyIsThatOfTheLikelihoodRatioPosterior() {
        Occurrences chain = Occurrences.of(
                10, new int[][] {{0, 2, 3}, {4, 5}, {0, 1, 2, 6}, {1, 7, 8}, {3, 9}}, new int[][] {{0, 1}, {7, 8}});
        DownloadAdversary.Result r = new DownloadAdversary(chain).rank(new int[] {0, 2, 3}, 0, 0, 2, 1.0);
        assertEquals(2.5393965036461212, r.cooccurrence().entropyBits(), 1e-9);
        assertEquals(Math.log(6) / Math.log(2), r.uniform().entropyBits(), 1e-9);
    }

    @Test
    void sessionsCombineByIntersectionOrUnion() {
        int[] a = {1, 3, 5};
        int[] b = {3, 4, 5};
        assertArrayEquals(new int[] {3, 5}, FetchPolicyAdversaries.sessions(a, b, false));
        assertArrayEquals(new int[] {1, 3, 4, 5}, FetchPolicyAdversaries.sessions(a, b, true));
        assertArrayEquals(new int[] {1, 3, 4, 5}, FetchPolicyRun.union(new int[][] {a, b, {9}}, 2));
        assertEquals(
                List.of("max over adversaries"),
                FetchPolicyAdversaries.NAMES.subList(FetchPolicyAdversaries.MAX, FetchPolicyAdversaries.NAMES.size()));
    }
}
