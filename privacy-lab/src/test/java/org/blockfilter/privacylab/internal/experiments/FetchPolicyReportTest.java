package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.junit.jupiter.api.Test;

/** The pre-registered rule for the default and the intervals, applied to hand-written summaries. */
class FetchPolicyReportTest {
    private static final String MAX = FetchPolicyAdversaries.NAMES.get(FetchPolicyAdversaries.MAX);

    private static Csv summary() {
        return new Csv(FetchPolicySummary.COLUMNS);
    }

    /** The max-over-adversaries rows of one policy at N = 1 and 10, k = 1 and 4, all with upper bound {@code hi}. */
    private static void policy(Csv s, String spec, double bw, double hi) {
        for (int n : new int[] {1, 10}) {
            for (int k : new int[] {1, 4}) {
                s.row(n, k, spec, "", MAX, 9, 5, 5, bw, bw, bw, 1, hi - 0.1, hi - 0.2, hi, "", 1, 3, 1, 1, 3, 1);
            }
        }
    }

    @Test
    void theRulePicksTheCheapestPolicyWhoseWorstCaseUpperBoundIsBelowAHalfEverywhere() {
        Csv s = summary();
        policy(s, "none", 1, 1.0);
        policy(s, "spread,decoys=4,shuffle", 7, 0.6);
        policy(s, "spread,clusters=2,shuffle", 9, 0.45); // qualifies
        policy(s, "spread,decoys=4,clusters=2,shuffle", 12, 0.3); // qualifies, costlier
        policy(s, "tor", 1, 0.1); // not a wallet policy
        // one case over the bound disqualifies a policy
        policy(s, "spread,decoys=2,shuffle", 4, 0.4);
        s.row(1, 4, "spread,decoys=2,shuffle", "", MAX, 9, 5, 5, 4, 4, 4, 1, 0.5, 0.4, 0.55, "", 1, 3, 1, 1, 3, 1);
        FetchPolicyReport.Decision d = FetchPolicyReport.rule(s);
        assertEquals("spread,clusters=2,shuffle", d.pick(), d.text());
        assertTrue(d.text().contains("This run: `spread,clusters=2,shuffle`"), d.text());
    }

    /** A block-by-block row is the same policy synced another way, not a candidate (as Tor is not). */
    @Test
    void blockByBlockRowsAreNotCandidatesForTheDefault() {
        Csv s = summary();
        policy(s, "none", 1, 1.0);
        policy(s, FetchPolicy.DEFAULT_SPEC, 7, 0.9);
        policy(s, FetchPolicyExperiment.INCREMENTAL + FetchPolicy.DEFAULT_SPEC, 7, 0.3);
        FetchPolicyReport.Decision d = FetchPolicyReport.rule(s);
        assertNull(d.pick(), d.text());
        assertTrue(d.text().contains("the lowest worst-case upper bound is `" + FetchPolicy.DEFAULT_SPEC + "`'s, 0.9"));
    }

    /** The block-by-block table pairs each block-by-block row with the same policy's range row, adversary by adversary. */
    @Test
    void theBlockByBlockTablePairsEachPolicyWithItsRangeSync() {
        Csv s = summary();
        String inc = FetchPolicyExperiment.INCREMENTAL + FetchPolicy.DEFAULT_SPEC;
        for (String a : FetchPolicyAdversaries.NAMES) {
            s.row(10, 1, FetchPolicy.DEFAULT_SPEC, "yes", a, 9, 5, 5, 7, 6, 8, 1, 0.4, 0.3, 0.5, "", 1, 3, 1, 1, 3, 7);
            s.row(10, 1, inc, "", a, 9, 5, 5, 7.5, 6, 8, 1, 0.6, 0.5, 0.7, "", 1, 3, 1, 1, 3, 7);
        }
        Csv t = FetchPolicyTables.byBlock(s);
        assertEquals(2, t.rows().size());
        assertEquals(
                List.of("10", "1", FetchPolicy.DEFAULT_SPEC, "one range", "7 [6, 8]", "7"),
                t.rows().get(0).subList(0, 6));
        assertEquals("0.4 [0.3, 0.5]", t.rows().get(0).get(6));
        assertEquals("block by block", t.rows().get(1).get(3));
        assertEquals("7", t.rows().get(1).get(5), "the same distinct blocks per match");
        assertEquals("0.6 [0.5, 0.7]", t.rows().get(1).get(6 + FetchPolicyTables.BY_BLOCK_ADVERSARIES.size() - 1));
    }

    /** One-source rows of a cluster-only and a decoy-only policy at N = 10: co-occurrence and graph P_h(1). */
    private static Csv clustersAndDecoys(double clusterGraph, double decoyGraph) {
        Csv s = summary();
        String clusters = "spread,clusters=2,shuffle";
        String decoys = "spread,decoys=2,shuffle";
        s.row(10, 1, clusters, "", "co-occurrence", 9, 6, 5, 3, 2, 4, 1, 0.7, 0.6, 0.8, "", 1, 3, 1, 1, 3, 1);
        s.row(10, 1, clusters, "", "tx graph", 9, 6, 5, 3, 2, 4, 1, clusterGraph, 0.0, 1.0, "", 1, 3, 1, 1, 3, 1);
        s.row(10, 1, decoys, "", "co-occurrence", 9, 6, 5, 5, 4, 6, 1, 0.2, 0.1, 0.3, "", 1, 3, 1, 1, 3, 1);
        s.row(10, 1, decoys, "", "tx graph", 9, 6, 5, 5, 4, 6, 1, decoyGraph, 0.0, 1.0, "", 1, 3, 1, 1, 3, 1);
        return s;
    }

    /** Cluster decoys that leak more to the graph than lone decoys get the adoption rules' explanation, else not. */
    @Test
    void clusterDecoysThatLeakMoreToTheGraphAreExplained() {
        String worse = FetchPolicyReport.clustersAlone(clustersAndDecoys(0.9, 0.1));
        assertTrue(
                worse.startsWith("At N = 10, one source, `spread,clusters=2,shuffle` gives source 0's co-occurrence"
                        + " 0.7 [0.6, 0.8]"),
                worse);
        assertTrue(worse.contains("(3 against 5 blocks per matched block). Both policies are scored"), worse);
        assertTrue(
                worse.contains("these wallets match 6 blocks on average (mean_matched_blocks) where a decoy cluster"
                        + " may be in at most " + FetchPolicy.CLUSTER_MAX_BLOCKS + " (CLUSTER_MAX_BLOCKS)"),
                worse);
        String better = FetchPolicyReport.clustersAlone(clustersAndDecoys(0.1, 0.9));
        assertTrue(better.endsWith("(3 against 5 blocks per matched block)."), better);
    }

    @Test
    void withNoQualifyingPolicyTheDefaultStaysAndTheTextSaysSo() {
        Csv s = summary();
        policy(s, "none", 1, 1.0);
        policy(s, FetchPolicy.DEFAULT_SPEC, 7, 0.9);
        policy(s, "spread,clusters=2,shuffle", 9, 0.8);
        FetchPolicyReport.Decision d = FetchPolicyReport.rule(s);
        assertNull(d.pick());
        assertTrue(
                d.text()
                        .contains("no policy qualifies; the lowest worst-case upper bound is"
                                + " `spread,clusters=2,shuffle`'s, 0.8"),
                d.text());
    }

    /**
     * The frontier is the lower envelope: (1, 0.9), (2, 0.5), (4, 0.2) survive; (3, 0.6) and (5, 0.2) are dominated
     * (a cheaper policy leaks less, or as little); the steps hold each level until the next point and on to x = 6.
     */
    @Test
    void theFrontierIsTheLowerEnvelopeOfThePoliciesDrawnAsSteps() {
        List<double[]> points = List.of(
                new double[] {3, 0.6},
                new double[] {1, 0.9},
                new double[] {5, 0.2},
                new double[] {2, 0.5},
                new double[] {4, 0.2});
        List<double[]> env = FetchPolicyPlots.lowerEnvelope(points);
        assertEquals(
                List.of("1.0 0.9", "2.0 0.5", "4.0 0.2"),
                env.stream().map(p -> p[0] + " " + p[1]).toList());
        assertEquals(
                List.of("1.0 0.9", "2.0 0.9", "2.0 0.5", "4.0 0.5", "4.0 0.2", "6.0 0.2"),
                FetchPolicyPlots.steps(env, 6).stream()
                        .map(p -> p[0] + " " + p[1])
                        .toList());
        assertEquals("decoys=4 (default)", FetchPolicyPlots.shortName(FetchPolicy.DEFAULT_SPEC));
        assertEquals("spread", FetchPolicyPlots.shortName("spread,shuffle"));
        assertEquals("clusters=2", FetchPolicyPlots.shortName("spread,clusters=2,shuffle"));
    }

    /** 24 of 24: Wilson's lower bound is 24 / (24 + z^2) = 0.862 (the bootstrap gave [1, 1]). */
    @Test
    void theWilsonIntervalDoesNotCollapseOnAllOnes() {
        double[] ci = FetchPolicySummary.wilson(1.0, 24);
        assertEquals(24 / (24 + Stats.Z95 * Stats.Z95), ci[0], 1e-12);
        assertEquals(1.0, ci[1], 1e-12);
        // and at 0 of n the lower bound is exactly 0, not a rounding residue
        assertEquals(0.0, FetchPolicySummary.wilson(0.0, 6)[0]);
    }

    /**
     * Mean 0.5 over 30 wallets in three chains whose means are 0.3, 0.5, 0.7: the mean's variance from the chains is
     * (0.04 + 0 + 0.04) / (3 x 2) = 0.01333, a simple random sample's 0.25 / 30 = 0.00833: design effect 1.6, and the
     * interval is Wilson's for 30 / 1.6 = 18.75 trials. Equal chain means: no effect (1).
     */
    @Test
    void chainToChainVarianceWidensTheIntervalByTheDesignEffect() {
        assertEquals(1.6, FetchPolicySummary.designEffect(0.5, 30, List.of(0.3, 0.5, 0.7)), 1e-12);
        assertEquals(1.0, FetchPolicySummary.designEffect(0.5, 30, List.of(0.5, 0.5, 0.5)), 1e-12);
        assertEquals(1.0, FetchPolicySummary.designEffect(0.5, 30, List.of(0.3)), 1e-12);
        double[] narrow = FetchPolicySummary.wilson(0.5, 30);
        double[] wide = FetchPolicySummary.wilson(0.5, 30 / 1.6);
        assertTrue(wide[0] < narrow[0] && wide[1] > narrow[1]);
    }

    /** A raw row of wallet {@code w} on chain 0 under {@code spec}, with its model and distinct downloads. */
    private static Object[] rawRow(int w, String spec, String model, int distinct) {
        Object[] r = new Object[FetchPolicyExperiment.header().size()];
        java.util.Arrays.fill(r, 0);
        r[0] = w;
        r[4] = 1;
        r[5] = spec;
        r[FetchPolicyExperiment.MODEL_COLUMN] = model;
        r[FetchPolicyExperiment.MODEL_COLUMN + 1] = distinct;
        return r;
    }

    /**
     * Wallet 0 downloads 20 distinct blocks in one range and block by block, wallet 1 20 and 21, wallet 2 (no reuse,
     * the same wallet index as a reuse one) 5 and 5: two of three pairs match, and a wallet measured one way only is
     * not a pair.
     */
    @Test
    void distinctDownloadsArePairedByWalletModelAndPolicy() {
        String inc = FetchPolicyExperiment.INCREMENTAL + FetchPolicy.DEFAULT_SPEC;
        Csv raw = new Csv(FetchPolicyExperiment.header().toArray(String[]::new));
        raw.row(rawRow(0, FetchPolicy.DEFAULT_SPEC, "reuse", 20));
        raw.row(rawRow(0, inc, "reuse", 20));
        raw.row(rawRow(1, FetchPolicy.DEFAULT_SPEC, "reuse", 20));
        raw.row(rawRow(1, inc, "reuse", 21));
        raw.row(rawRow(0, FetchPolicy.DEFAULT_SPEC, "no-reuse", 5));
        raw.row(rawRow(0, inc, "no-reuse", 5));
        raw.row(rawRow(2, "none", "reuse", 3));
        assertEquals(
                List.of(2, 3),
                java.util.Arrays.stream(FetchPolicyTables.sameDistinct(raw))
                        .boxed()
                        .toList());
        assertEquals(
                2,
                FetchPolicyExperiment.ofModel(raw, ProfileShapedChain.WalletModel.NO_REUSE)
                        .rows()
                        .size());
        assertEquals(
                5,
                FetchPolicyExperiment.ofModel(raw, ProfileShapedChain.WalletModel.REUSE)
                        .rows()
                        .size());
    }

    /** Each no-reuse setting gets the reuse wallets' row above its own; a reuse-only setting gets none. */
    @Test
    void theNoReuseTablePutsEachNoReuseRowUnderTheReuseRowOfTheSameSetting() {
        Csv reuse = summary();
        Csv noReuse = summary();
        for (String a : FetchPolicyAdversaries.NAMES) {
            reuse.row(
                    10,
                    1,
                    FetchPolicy.DEFAULT_SPEC,
                    "yes",
                    a,
                    12,
                    5,
                    5,
                    4,
                    3,
                    5,
                    1,
                    0.2,
                    0.1,
                    0.3,
                    "",
                    1,
                    3,
                    1,
                    1,
                    3,
                    4);
            reuse.row(
                    10, 1, "spread,decoys=2,shuffle", "", a, 12, 5, 5, 3, 2, 4, 1, 0.3, 0.2, 0.4, "", 1, 3, 1, 1, 3, 3);
            noReuse.row(
                    10,
                    1,
                    FetchPolicy.DEFAULT_SPEC,
                    "yes",
                    a,
                    12,
                    9,
                    9,
                    5,
                    4,
                    6,
                    1,
                    0.1,
                    0.0,
                    0.2,
                    "",
                    1,
                    3,
                    1,
                    1,
                    3,
                    5);
        }
        Csv t = FetchPolicyTables.beside(reuse, noReuse);
        assertEquals(2, t.rows().size());
        assertEquals(
                List.of(
                        "10",
                        "1",
                        FetchPolicy.DEFAULT_SPEC + " (default)",
                        "reuse",
                        "12",
                        "4 [3, 5]",
                        "0.2 [0.1, 0.3]"),
                t.rows().get(0).subList(0, 7));
        assertEquals(
                List.of(
                        "10",
                        "1",
                        FetchPolicy.DEFAULT_SPEC + " (default)",
                        "no reuse",
                        "12",
                        "5 [4, 6]",
                        "0.1 [0.0, 0.2]"),
                t.rows().get(1).subList(0, 7));
    }

    /** A rerender reads the setup back from exp8_setup.csv: what it reads must be what the run reported from. */
    @Test
    void theSetupReadsBackAsItWasMadeSoARerenderPrintsTheRunsFigures(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        FetchPolicySummary.Setup made = new FetchPolicySummary.Setup(
                300, 3, 24, 24, 2016, 24, 7662.31, 531689.4, 250, 50, 486, 535, 2, 1, 2, 0.87);
        java.nio.file.Path file = dir.resolve("exp8_setup.csv");
        made.write(file);
        assertEquals(made, FetchPolicySummary.Setup.read(file));
    }

    /**
     * The committed full-mode results (privacy-lab/run.sh exp8 --out privacy-lab/results) are this code's shape: raw
     * and summary headers, every setting for every wallet size over every chain seed, every adversary, the setup and
     * BIP 37 tables, and the report's sections for the rule, the default's leaks and the other designs.
     */
    @Test
    void theCommittedResultsHaveThisExperimentsShape() throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Path.of("results", FetchPolicyExperiment.DIR);
        Csv raw = FetchPolicySummary.read(dir.resolve("exp8_raw.csv"));
        assertEquals(FetchPolicyExperiment.header(), raw.header());
        Csv summary = FetchPolicySummary.read(dir.resolve("exp8_summary.csv"));
        assertEquals(List.of(FetchPolicySummary.COLUMNS), summary.header());
        FetchPolicySummary.Setup setup = FetchPolicySummary.Setup.read(dir.resolve("exp8_setup.csv"));
        assertEquals(FetchPolicyExperiment.chainSeeds(false), setup.seeds());
        ProfileShapedChain.Shape shape = FetchPolicyExperiment.shape(false);
        assertEquals(shape.blocks(), setup.blocks());
        int settings = FetchPolicyExperiment.settings().size();
        int noReuseSettings = FetchPolicyExperiment.noReuseSettings().size();
        assertEquals(
                setup.wallets() * settings
                        + setup.noReuseWallets() * noReuseSettings
                        + setup.longWallets() * FetchPolicyLongChain.settings().size(),
                raw.rows().size());
        assertEquals(FetchPolicyLongChain.shape(false).blocks(), setup.longBlocks());
        assertEquals(
                shape.walletSizes().length * settings * FetchPolicyAdversaries.NAMES.size(),
                summary.rows().size());
        assertEquals(
                shape.walletSizes().length * noReuseSettings * FetchPolicyAdversaries.NAMES.size(),
                FetchPolicySummary.read(dir.resolve(FetchPolicyExperiment.NO_REUSE_SUMMARY))
                        .rows()
                        .size());
        for (List<String> r : summary.rows()) {
            assertTrue(FetchPolicyAdversaries.NAMES.contains(r.get(4)), r.toString());
            assertEquals(String.valueOf(setup.seeds()), r.get(20), r.toString());
        }
        assertEquals(
                shape.walletSizes().length,
                FetchPolicySummary.read(dir.resolve("exp8_bip37.csv")).rows().size());
        String md = java.nio.file.Files.readString(dir.resolve("report.md"));
        for (String heading : List.of(
                "## The default",
                "## What the default leaks, per adversary",
                "## Other light-client designs",
                "## No-reuse wallets beside the reuse wallets")) {
            assertTrue(md.contains(heading), heading);
        }
        assertTrue(md.contains(FetchPolicyReport.rule(summary).text()), "the report states the rule's outcome");
    }
}
