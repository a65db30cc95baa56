package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.blockfilter.privacylab.internal.adversaries.ChangeAdversary;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.RealChain;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Experiment 8 on a six-block chain where every answer is worked out by hand. The wallet (one address, script 0) is
 * paid in blocks 1, 3 and 4; the other scripts appear once each:
 *
 * <pre>
 *   block 0: 20      block 1: 0 10 11    block 2: 21
 *   block 3: 0 12 13 block 4: 0 14       block 5: 22
 * </pre>
 *
 * With no policy and one source the real sync engine downloads exactly blocks 1, 3, 4 (heights 2, 4, 5). The uniform
 * adversary keeps the scripts all of whose blocks were downloaded, 0 and 10..14, and guesses one of 6: P_h(1) = 1/6.
 * Co-occurrence ranks script 0 (3 of 3 downloaded blocks) alone above the others (1 of 1): P_h(1) = 1; timing
 * (every block requested within the filter batch) and a second session (the same downloads) change nothing; the
 * transaction graph has no multi-input clusters, so it equals co-occurrence: 1. With one source the Sybils and the
 * network observer see what source 0 sees, and no policy means the policy-aware adversaries are the blind ones: 1.
 * Blocks 0, 2 and 5 hold one paid script each (a coinbase and one one-output payment), so their sizes are equal and a
 * BIP 324 observer cannot tell them apart; 1, 3 and 4 differ (two background outputs and the wallet's own payment; two
 * outputs and a spend; one output and the wallet's payment): it knows every download and gets 1 as well.
 */
class FetchPolicyExperimentTest {
    private static FetchPolicyRun.World world;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build(@TempDir Path out) {
        int[][] blocks = {{20}, {0, 10, 11}, {21}, {0, 12, 13}, {0, 14}, {22}};
        MainnetLikeChain chain =
                MainnetLikeChain.of(5, blocks, new int[0][], List.of(new MainnetLikeChain.Wallet(0, 1, 0, 0)));
        Lab lab = new Lab(5, true, out, 1, new PrintStream(PrintStream.nullOutputStream()));
        world = FetchPolicyRun.world(chain, lab, 0, null);
    }

    /** The hand-written chain has no transactions, so no change links: change linking is the transaction graph. */
    private static ChangeAdversary noChange() {
        return new ChangeAdversary(
                world.chain().occ, ChangeLinks.none(world.chain().blocks()));
    }

    private MainnetLikeChain.Wallet wallet() {
        return world.chain().wallets().get(0);
    }

    @Test
    void withoutAPolicyTheEngineDownloadsExactlyTheWalletsBlocksAndEveryAdversaryGetsItsHandComputedAnswer() {
        FetchPolicyExperiment.Setting none = new FetchPolicyExperiment.Setting(1, "none");
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, wallet(), none, tmp);

        assertEquals(3, run.matched());
        assertEquals(3, run.downloads());
        assertEquals(0, run.decoys());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed1());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed1Timing());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed2());

        int[] sizes = world.blockSizes();
        assertEquals(sizes[0], sizes[2]);
        assertEquals(sizes[0], sizes[5]);
        assertArrayEquals(
                new boolean[] {false, true, false, true, true, false},
                FetchPolicyAdversaries.knownBySize(sizes, 0, false));
        FetchPolicyAdversaries.Outcome o = FetchPolicyAdversaries.attack(
                new DownloadAdversary(world.chain().occ), noChange(), sizes, wallet(), none, run);
        assertEquals(FetchPolicyAdversaries.NAMES.size(), o.ph1().length);
        assertEquals(1.0 / 6, o.ph1()[0], 1e-12, "uniform");
        assertEquals(Math.log(6) / Math.log(2), o.bits()[0], 1e-9, "uniform over 6");
        for (int a = 1; a < o.ph1().length; a++) {
            assertEquals(1.0, o.ph1()[a], 1e-12, FetchPolicyAdversaries.NAMES.get(a));
        }
        assertEquals(1.0, o.sizeIdentified(), 1e-12);
    }

    @Test
    void overTorEachBlockGoesToOnePeerAndTheNetworkObserverSeesOnlyCellCounts() {
        FetchPolicyExperiment.Setting tor = new FetchPolicyExperiment.Setting(4, "tor");
        assertEquals(FetchPolicy.NONE, tor.policy());
        assertEquals(1, tor.engineSources());
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, wallet(), tor, tmp);
        assertEquals(4, run.served1().length);
        assertArrayEquals(new int[] {1, 3, 4}, FetchPolicyRun.union(run.served1(), 4));
        assertArrayEquals(new int[] {1, 3, 4}, FetchPolicyRun.union(run.served2(), 4));
        int served = 0;
        for (int[] p : run.served1()) {
            served += p.length;
        }
        assertEquals(3, served, "each block from exactly one peer");
        FetchPolicyAdversaries.Outcome o = FetchPolicyAdversaries.attack(
                new DownloadAdversary(world.chain().occ), noChange(), world.blockSizes(), wallet(), tor, run);
        System.err.println(java.util.Arrays.toString(world.blockSizes()) + " " + java.util.Arrays.toString(o.ph1())
                + " " + o.sizeIdentified());
        for (double ph : o.ph1()) {
            assertTrue(ph <= o.ph1()[FetchPolicyAdversaries.MAX]);
        }
    }

    /**
     * Synced after every block (six syncs, tips at heights 1..6) with no policy, the wallet downloads what one sync of
     * the range downloads, each block in the sync whose filters covered it: the same answers as the range sync.
     */
    @Test
    void blockByBlockTheWalletDownloadsWhatOneRangeSyncDownloadsEachInItsOwnSync() {
        FetchPolicyExperiment.Setting byBlock = new FetchPolicyExperiment.Setting(1, "incremental=1,none");
        assertTrue(byBlock.incremental());
        assertEquals(1, byBlock.step());
        assertEquals(FetchPolicy.NONE, byBlock.policy());
        assertTrue(!byBlock.isDefault());
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, wallet(), byBlock, tmp);
        assertEquals(3, run.matched());
        assertEquals(3, run.downloads());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed1());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed1Timing());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed2());
        FetchPolicyAdversaries.Outcome o = FetchPolicyAdversaries.attack(
                new DownloadAdversary(world.chain().occ), noChange(), world.blockSizes(), wallet(), byBlock, run);
        assertEquals(1.0 / 6, o.ph1()[0], 1e-12, "uniform");
        assertEquals(1.0, o.ph1()[FetchPolicyAdversaries.MAX], 1e-12);
    }

    /** With the default policy, a sync every two blocks, every own block is still downloaded and decoys are counted. */
    @Test
    void blockByBlockWithTheDefaultEveryOwnBlockIsDownloaded() {
        FetchPolicyExperiment.Setting byBlock =
                new FetchPolicyExperiment.Setting(1, "incremental=2," + FetchPolicy.DEFAULT_SPEC);
        assertEquals(FetchPolicy.DEFAULT, byBlock.policy());
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, wallet(), byBlock, tmp);
        assertTrue(run.ownAllDownloaded());
        assertEquals(3, run.matched());
        assertEquals(run.matched() + run.decoys(), run.downloads());
    }

    /**
     * The timing observer keeps a block requested while the scan front (the filter batch with the highest first height
     * served so far) covers it. Source 0 serves filters 1001..1006 (the front), block 1003, filters 1..1000 (a decoy's
     * look-back, below the front), blocks 1004 and 500, filters 1007..1012 (the next front), block 1005; source 1 serves
     * block 1006. Kept: 1003 and 1004 (model blocks 1002, 1003), whether or not the look-back came between them; not
     * 500 (below the front) nor 1005 (requested after the front moved past it).
     */
    @Test
    void theTimingObserverKeepsTheScanFrontsBlocksWhereverLookBacksFallBetweenThem() {
        RealChain.Log log = new RealChain.Log();
        String s = "source-0";
        int[][] served = {{0, 1001, 1006}, {1, 1003}, {0, 1, 1000}, {1, 1004}, {1, 500}, {0, 1007, 1012}, {1, 1005}};
        for (int[] q : served) {
            log.requests.add(new RealChain.Request(s, q[0] == 1, q[1], q[q.length - 1], log.requests.size(), 0));
        }
        log.requests.add(new RealChain.Request("source-1", true, 1006, 1006, log.requests.size(), 0));
        assertArrayEquals(new int[] {1002, 1003}, FetchPolicyRun.observed(log, s, true));
        assertArrayEquals(new int[] {499, 1002, 1003, 1004}, FetchPolicyRun.observed(log, s, false));
        assertArrayEquals(new int[] {1005}, FetchPolicyRun.observed(log, "source-1", false));
    }

    /** A source as of an earlier tip knows no later block (a growing chain), and refuses a tip past the chain's. */
    @Test
    void aSourceAsOfAnEarlierTipKnowsNoLaterBlock() {
        RealChain.Log log = new RealChain.Log();
        org.blockfilter.wallet.source.ChainSource src = world.real().source("early", log, 3);
        assertEquals(3, src.tipHeight());
        assertEquals(4, src.blockHeaders(0, 10).size());
        org.blockfilter.wallet.source.ChainSource full = world.real().source("full", log);
        byte[] header4 = full.blockHeaders(4, 1).get(0);
        org.bitcoinj.base.Sha256Hash hash4 =
                org.bitcoinj.core.Block.read(java.nio.ByteBuffer.wrap(header4)).getHash();
        org.junit.jupiter.api.Assertions.assertThrows(
                org.blockfilter.wallet.source.SourceException.class, () -> src.block(hash4));
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> world.real().source("late", log, 7));
    }

    @Test
    void spreadOverFourSourcesShowsSourceZeroOnlyItsShareAndTheSameShareInBothSessions() {
        FetchPolicyExperiment.Setting spread = new FetchPolicyExperiment.Setting(4, "spread,shuffle");
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, wallet(), spread, tmp);
        assertEquals(3, run.downloads());
        assertTrue(run.observed1().length < 3, "source 0 saw " + run.observed1().length + " of 3");
        assertArrayEquals(run.observed1(), run.observed2());
        // the network observer sees all four sources: every download
        assertArrayEquals(new int[] {1, 3, 4}, FetchPolicyRun.union(run.served1(), 4));
    }

    @Test
    void withDecoysEveryOwnBlockIsStillDownloadedAndBothSessionsSeeTheSameBlocks() {
        FetchPolicyExperiment.Setting decoys = new FetchPolicyExperiment.Setting(1, "decoys=2,shuffle");
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, wallet(), decoys, tmp);
        assertTrue(run.ownAllDownloaded());
        assertEquals(3, run.matched());
        assertEquals(run.matched() + run.decoys(), run.downloads());
        assertTrue(run.decoys() > 0);
        assertArrayEquals(run.observed1(), run.observed2());
    }

    @Test
    void theMeasurementWritesOneRowPerWalletAndSetting() {
        List<FetchPolicyExperiment.Setting> settings = FetchPolicyExperiment.settings();
        List<Object[]> rows = FetchPolicyExperiment.measure(
                world, ChangeLinks.none(world.chain().blocks()), 0, settings, 1, null);
        assertEquals(settings.size(), rows.size());
        Object[] first = rows.get(0);
        assertEquals(FetchPolicyExperiment.header().size(), first.length);
        assertEquals("none", first[5]);
        assertEquals(1.0, (double) first[FetchPolicyExperiment.PH1_COLUMN + 1], 1e-12, "co-occurrence, no policy");
    }

    @Test
    void theWalletsDefaultPolicyIsAmongTheMeasuredOnes() {
        assertTrue(FetchPolicyExperiment.settings().stream().anyMatch(FetchPolicyExperiment.Setting::isDefault));
    }

    @Test
    void theGridMeasuresEachPolicyOnceAndKeepsTheDecoyLevelsTheDefaultWasChosenFrom() {
        for (int sources : FetchPolicyExperiment.SOURCES) {
            List<FetchPolicyExperiment.Setting> at = FetchPolicyExperiment.settings().stream()
                    .filter(s -> s.sources() == sources)
                    .toList();
            assertEquals(at.size(), new java.util.HashSet<>(at).size(), "a setting measured twice: " + at);
            assertTrue(at.stream().anyMatch(FetchPolicyExperiment.Setting::isDefault), "no default at " + sources);
        }
        List<FetchPolicy> one = FetchPolicyExperiment.settings().stream()
                .filter(s -> s.sources() == 1)
                .map(FetchPolicyExperiment.Setting::policy)
                .toList();
        for (int decoys : new int[] {0, 2, 4}) {
            assertTrue(one.stream().anyMatch(p -> p.decoys() == decoys && p.clusters() == 0), decoys + " decoys");
        }
        assertTrue(one.stream().anyMatch(p -> p.decoys() == 0 && p.clusters() > 0), "cluster decoys");
        assertTrue(FetchPolicyExperiment.settings().stream().anyMatch(FetchPolicyExperiment.Setting::tor));
    }

    @Test
    void csvLinesSplitAsCsvWritesThem() {
        assertEquals(
                List.of("0", "spread,decoys=1,shuffle", "1.0"),
                FetchPolicySummary.split("0,\"spread,decoys=1,shuffle\",1.0"));
    }
}
