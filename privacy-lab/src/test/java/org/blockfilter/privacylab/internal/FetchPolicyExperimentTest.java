package org.blockfilter.privacylab.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
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
 * transaction graph has no multi-input clusters, so it equals co-occurrence: 1.
 */
class FetchPolicyExperimentTest {
    private static FetchPolicyExperiment.World world;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build(@TempDir Path out) {
        int[][] blocks = {{20}, {0, 10, 11}, {21}, {0, 12, 13}, {0, 14}, {22}};
        MainnetLikeChain chain =
                MainnetLikeChain.of(5, blocks, new int[0][], List.of(new MainnetLikeChain.Wallet(0, 1, 0, 0)));
        Lab lab = new Lab(5, true, out, 1, new PrintStream(PrintStream.nullOutputStream()));
        world = FetchPolicyExperiment.world(chain, lab, null);
    }

    private MainnetLikeChain.Wallet wallet() {
        return world.chain().wallets().get(0);
    }

    @Test
    void withoutAPolicyTheEngineDownloadsExactlyTheWalletsBlocksAndEveryAdversaryGetsItsHandComputedAnswer() {
        FetchPolicyExperiment.Setting none = new FetchPolicyExperiment.Setting(1, "none");
        FetchPolicyExperiment.Run run = FetchPolicyExperiment.run(world, wallet(), none, tmp);

        assertEquals(3, run.matched());
        assertEquals(3, run.downloads());
        assertEquals(0, run.decoys());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed1());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed1Timing());
        assertArrayEquals(new int[] {1, 3, 4}, run.observed2());

        DownloadAdversary.Ranking[] r =
                FetchPolicyExperiment.attack(new DownloadAdversary(world.chain().occ), wallet(), none, run);
        assertEquals(FetchPolicyExperiment.ADVERSARIES.size(), r.length);
        assertEquals(1.0 / 6, r[0].ph(1), 1e-12, "uniform");
        assertEquals(6, r[0].candidates());
        for (int a = 1; a < r.length; a++) {
            assertEquals(1.0, r[a].ph(1), 1e-12, FetchPolicyExperiment.ADVERSARIES.get(a));
        }
    }

    @Test
    void spreadOverFourSourcesShowsSourceZeroOnlyItsShareAndTheSameShareInBothSessions() {
        FetchPolicyExperiment.Setting spread = new FetchPolicyExperiment.Setting(4, "spread,shuffle");
        FetchPolicyExperiment.Run run = FetchPolicyExperiment.run(world, wallet(), spread, tmp);
        assertEquals(3, run.downloads());
        assertTrue(run.observed1().length < 3, "source 0 saw " + run.observed1().length + " of 3");
        assertArrayEquals(run.observed1(), run.observed2());
    }

    @Test
    void withDecoysEveryOwnBlockIsStillDownloadedAndBothSessionsSeeTheSameBlocks() {
        FetchPolicyExperiment.Setting decoys = new FetchPolicyExperiment.Setting(1, "decoys=2,shuffle");
        FetchPolicyExperiment.Run run = FetchPolicyExperiment.run(world, wallet(), decoys, tmp);
        assertTrue(run.ownAllDownloaded());
        assertEquals(3, run.matched());
        assertEquals(run.matched() + run.decoys(), run.downloads());
        assertTrue(run.decoys() > 0);
        assertArrayEquals(run.observed1(), run.observed2());
    }

    @Test
    void theMeasurementWritesOneRowPerWalletAndSetting() {
        List<FetchPolicyExperiment.Setting> settings = FetchPolicyExperiment.settings();
        Csv raw = FetchPolicyExperiment.measure(world, settings, 1, null);
        assertEquals(settings.size(), raw.rows().size());
        assertEquals(FetchPolicyExperiment.header(), raw.header());
        List<String> first = raw.rows().get(0);
        assertEquals("none", first.get(4));
        assertEquals(1.0, Double.parseDouble(first.get(13)), 1e-12, "co-occurrence, no policy");
    }

    @Test
    void theWalletsDefaultPolicyIsAmongTheMeasuredOnes() {
        assertTrue(FetchPolicyExperiment.settings().stream().anyMatch(FetchPolicyExperiment.Setting::isDefault));
    }

    @Test
    void theGridMeasuresEachPolicyOnceAndKeepsTheDecoyLevelsTheDefaultWasChosenFrom() {
        for (int sources : FetchPolicyExperiment.SOURCES) {
            List<FetchPolicy> policies = FetchPolicyExperiment.settings().stream()
                    .filter(s -> s.sources() == sources)
                    .map(s -> FetchPolicy.parse(s.spec()))
                    .toList();
            assertEquals(
                    policies.size(), new java.util.HashSet<>(policies).size(), "a policy measured twice: " + policies);
            for (int decoys : new int[] {0, 1, 2, 4}) {
                assertTrue(
                        policies.stream().anyMatch(p -> p.decoys() == decoys && p.clusters() == 0),
                        decoys + " decoys not measured at " + sources + " sources: " + policies);
            }
            for (int clusters : new int[] {1, 2, 4}) {
                assertTrue(
                        policies.stream().anyMatch(p -> p.decoys() == 0 && p.clusters() == clusters),
                        clusters + " decoy clusters not measured at " + sources + " sources: " + policies);
            }
        }
    }

    @Test
    void csvLinesSplitAsCsvWritesThem() {
        assertEquals(
                List.of("0", "spread,decoys=1,shuffle", "1.0"),
                FetchPolicyExperiment.split("0,\"spread,decoys=1,shuffle\",1.0"));
    }
}
