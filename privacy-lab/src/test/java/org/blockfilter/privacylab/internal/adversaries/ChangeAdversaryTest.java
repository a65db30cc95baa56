package org.blockfilter.privacylab.internal.adversaries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.junit.jupiter.api.Test;

/**
 * Change detection on a four-block chain where each answer is worked out by hand.
 *
 * <pre>
 * block 0: {0, 2, 4}      wallet script 0 paid; 2 and 4 foreign
 * block 1: {0, 1, 2, 5}   the wallet spends 0 to 2 (seen in block 0) with change to 1 (new); 5 foreign
 * block 2: {1, 7}         the wallet spends its change 1; 7 foreign
 * block 3: {5, 8}         5 spent, not downloaded
 * </pre>
 *
 * The wallet owns 0 and 1 and downloads blocks 0, 1 and 2; no inputs are spent together, so every common-input cluster
 * is one script. Scripts 0, 1 and 2 are each in two downloaded blocks: the transaction graph's top group, P_h(1) =
 * 2/3. The one-time-change link of block 1 joins 1 to 0: cluster {0, 1} is in three downloaded blocks, alone on top.
 */
class ChangeAdversaryTest {
    private static final Occurrences CHAIN =
            Occurrences.of(10, new int[][] {{0, 2, 4}, {0, 1, 2, 5}, {1, 7}, {5, 8}}, new int[0][]);
    private static final int[] DOWNLOADED = {0, 1, 2};
    private static final double EPS = 1e-12;

    /** Block 1's wallet transaction as the heuristic meets it: input 0, outputs 2 (seen in block 0) and 1 (new). */
    private static int block1Change() {
        BitSet seen = new BitSet();
        for (int s : new int[] {0, 2, 4}) {
            seen.set(s);
        }
        return ChangeLinks.oneTimeChange(new int[] {0}, 1, new int[] {2, 1}, 2, seen);
    }

    private static DownloadAdversary.Ranking rank(ChangeLinks links) {
        return new ChangeAdversary(CHAIN, links)
                .rank(DOWNLOADED, 0, 0, 2, 1.0, Integer.MAX_VALUE, Integer.MAX_VALUE, null);
    }

    @Test
    void theOneTimeChangeHeuristicNamesTheOnlyNewOutput() {
        assertEquals(1, block1Change());
        BitSet seen = new BitSet();
        seen.set(0);
        seen.set(2);
        // two new outputs: either could be change
        assertEquals(-1, ChangeLinks.oneTimeChange(new int[] {0}, 1, new int[] {1, 3}, 2, seen));
        // change back to an input's script: no one-time change, even with one new output
        assertEquals(-1, ChangeLinks.oneTimeChange(new int[] {0}, 1, new int[] {0, 1}, 2, seen));
        // one output: a sweep or a payment without change
        assertEquals(-1, ChangeLinks.oneTimeChange(new int[] {0}, 1, new int[] {1}, 1, seen));
        // no new output
        assertEquals(-1, ChangeLinks.oneTimeChange(new int[] {0}, 1, new int[] {2, 2}, 2, seen));
    }

    @Test
    void linkingTheChangeToItsInputsPutsTheWalletsClusterAloneOnTop() {
        DownloadAdversary graph = new DownloadAdversary(CHAIN);
        assertEquals(2.0 / 3, graph.rank(DOWNLOADED, 0, 0, 2, 1.0).graph().ph(1), EPS);
        // without links change linking is the transaction graph
        assertEquals(2.0 / 3, rank(ChangeLinks.none(4)).ph(1), EPS);
        DownloadAdversary.Ranking r = rank(ChangeLinks.of(new int[][][] {{}, {{0, block1Change()}}, {}, {}}));
        assertEquals(1.0, r.ph(1), EPS);
        assertEquals(1.0, r.ph(2), EPS);
        assertEquals(0.0, r.ph(3), EPS);
        // {0, 1}, 2, 4, 7 (5 is ruled out by block 3)
        assertEquals(5, r.candidates());
    }

    /**
     * Merging the other output (the payee 2) instead: {0, 2} (blocks 0, 1) ties with the unlinked change 1 (blocks 1,
     * 2), one group of three with two of the wallet's: P_h(1) = 2/3, P_h(2) = 2/3 x 1/2.
     */
    @Test
    void linkingTheWrongOutputLosesTheWallet() {
        DownloadAdversary.Ranking r = rank(ChangeLinks.of(new int[][][] {{}, {{0, 2}}, {}, {}}));
        assertEquals(2.0 / 3, r.ph(1), EPS);
        assertEquals(1.0 / 3, r.ph(2), EPS);
    }

    /**
     * A false link to the foreign 5 brings in its block 3, which was not downloaded: the wallet's cluster is ruled out,
     * and what is left on top is 1 and 2 (two downloaded blocks each).
     */
    @Test
    void aFalseLinkToAScriptWithAnUndownloadedBlockRulesTheWalletOut() {
        DownloadAdversary.Ranking r = rank(ChangeLinks.of(new int[][][] {{}, {{0, 5}}, {}, {}}));
        assertEquals(1.0 / 2, r.ph(1), EPS);
    }

    /** A link in a block that was not downloaded is not used: the observer links only what it saw. */
    @Test
    void linksOfBlocksNotDownloadedAreNotUsed() {
        DownloadAdversary.Ranking r = rank(ChangeLinks.of(new int[][][] {{}, {}, {}, {{5, 8}}}));
        assertEquals(2.0 / 3, r.ph(1), EPS);
    }

    /**
     * On experiment 5's chain with no-reuse wallets (fresh change): every link ties two scripts of its block, the
     * heuristic finds fresh change in wallet transactions, and every link it calls right is in a wallet transaction
     * and names that transaction's fresh change.
     */
    @Test
    void onTheProfileChainLinksJoinScriptsOfTheirBlockAndFindFreshChange() {
        ProfileShapedChain.Shape shape = ProfileShapedChain.Shape.mainnet(60, new int[] {1}, new int[] {8}, 250)
                .withTxPerBlock(300)
                .withPriorOutputs(50_000);
        ProfileShapedChain.Assumptions noReuse =
                new ProfileShapedChain.Assumptions(0.35, List.of(ProfileShapedChain.WalletModel.NO_REUSE), List.of());
        ProfileShapedChain.Built built = ProfileShapedChain.build(shape, noReuse, 3, null, false);
        Occurrences occ = built.chain().occ;
        ChangeLinks links = built.changes();
        assertEquals(occ.blocks, links.blocks());
        for (int b = 0; b < occ.blocks; b++) {
            for (int i = links.blockStart[b]; i < links.blockStart[b + 1]; i++) {
                assertTrue(inBlock(occ, b, links.input[i]) && inBlock(occ, b, links.change[i]), "link " + i);
            }
        }
        ChangeLinks.Truth t = built.changes().truth;
        assertTrue(t.walletFreshChange() > 0, t.toString());
        assertTrue(t.correct() > 0, t.toString());
        assertTrue(
                t.correct() <= t.walletLinks() && t.walletLinks() <= t.links() && t.links() <= t.txs(), t.toString());
        assertTrue(t.correct() <= t.walletFreshChange(), t.toString());
        // the reuse model's wallets send change back to an input: the heuristic never calls one of their links right
        ProfileShapedChain.Built reuse = ProfileShapedChain.build(
                shape,
                new ProfileShapedChain.Assumptions(0.35, List.of(ProfileShapedChain.WalletModel.REUSE), List.of()),
                3,
                null,
                false);
        assertEquals(0, reuse.changes().truth.correct());
        assertEquals(0, reuse.changes().truth.walletFreshChange());
    }

    private static boolean inBlock(Occurrences occ, int b, int script) {
        for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
            if (occ.blockScripts[i] == script) {
                return true;
            }
        }
        return false;
    }
}
