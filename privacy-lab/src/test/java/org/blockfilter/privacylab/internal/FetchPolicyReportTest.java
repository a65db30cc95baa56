package org.blockfilter.privacylab.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The pre-registered cluster rule, applied to hand-written summaries. */
class FetchPolicyReportTest {
    private static Csv summary() {
        return new Csv(FetchPolicyExperiment.SUMMARY_COLUMNS);
    }

    /** Adds the tx-graph and co-occurrence-over-two-sessions rows of one policy at N = 10, one source. */
    private static void policy(Csv s, String spec, double bw, double graphHi, double cooc) {
        s.row(10, 1, spec, "", "tx graph", 50, 5, 5, bw, bw, bw, 1, graphHi - 0.1, graphHi - 0.2, graphHi);
        s.row(10, 1, spec, "", "co-occurrence + 2 sessions", 50, 5, 5, bw, bw, bw, 1, cooc, cooc, cooc);
        // other N and sources never count
        s.row(1, 1, spec, "", "tx graph", 50, 5, 5, 0.1, 0.1, 0.1, 1, 0.0, 0.0, 0.0);
        s.row(10, 4, spec, "", "tx graph", 50, 5, 5, 0.1, 0.1, 0.1, 1, 0.0, 0.0, 0.0);
    }

    @Test
    void theClusterRulePicksTheCheapestSpreadShufflePolicyUnderHalfThatIsNoWorseOnCooccurrence() {
        Csv s = summary();
        policy(s, "none", 1, 1.0, 1.0);
        policy(s, "spread,decoys=4,shuffle", 7, 0.9, 0.4);
        policy(s, "clusters=1", 3, 0.1, 0.1); // no spread, shuffle: not eligible
        policy(s, "spread,clusters=1,shuffle", 5, 0.6, 0.3); // upper bound not below 0.5
        policy(s, "spread,clusters=2,shuffle", 9, 0.45, 0.5); // worse co-occurrence than the baseline
        policy(s, "spread,decoys=4,clusters=2,shuffle", 12, 0.3, 0.2); // qualifies
        policy(s, "spread,clusters=4,shuffle", 15, 0.2, 0.2); // qualifies, costlier
        String text = FetchPolicyReport.clusterRule(s);
        assertTrue(text.contains("This run: `spread,decoys=4,clusters=2,shuffle`"), text);
    }

    @Test
    void withNoQualifyingPolicyTheBaselineStays() {
        Csv s = summary();
        policy(s, "spread,decoys=4,shuffle", 7, 0.9, 0.4);
        policy(s, "spread,clusters=1,shuffle", 5, 0.6, 0.3);
        String text = FetchPolicyReport.clusterRule(s);
        assertTrue(text.contains("no policy qualifies, so the default stays `spread,decoys=4,shuffle`"), text);
    }
}
