package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.junit.jupiter.api.Test;

/** The exp5 report says what intersecting and uniting two re-syncs do for an observer of 1 of 4 peers. */
class Bip158ReportTest {
    @Test
    void resyncSentenceQuotesOneSyncIntersectionAndUnionForTheOneOfFourObserver() {
        Csv summary = new Csv(
                "N",
                "peers",
                "policy",
                "decoys",
                "adversary",
                "wallets",
                "own",
                "fp",
                "downloads",
                "mb",
                "candidates",
                "ph1",
                "ph1_lo",
                "ph1_hi",
                "phN",
                "phN_lo",
                "phN_hi");
        summary.row("1", "1", "NONE", "0", "co-occurrence", 3, 1, 0, 1, 1, 1, "0.55", "0.5", "0.6", 0, 0, 0);
        summary.row("1", "4", "NONE", "0", "co-occurrence", 3, 1, 0, 1, 1, 1, "0.0796", "0.05", "0.11", 0, 0, 0);
        summary.row(
                "1",
                "4",
                "NONE",
                "0",
                "co-occurrence + 2 re-syncs (intersection)",
                3,
                1,
                0,
                1,
                1,
                1,
                "0.00836",
                "0.0",
                "0.02",
                0,
                0,
                0);
        summary.row(
                "1",
                "4",
                "NONE",
                "0",
                "co-occurrence + 2 re-syncs (union)",
                3,
                1,
                0,
                1,
                1,
                1,
                "0.2",
                "0.1",
                "0.3",
                0,
                0,
                0);
        String s = Bip158Report.resyncAtFourPeers(summary);
        assertTrue(s.contains("weaker adversary"), s);
        assertTrue(s.contains("N = 1: P_h(1) 0.0796 [0.05, 0.11], 0.00836 [0.0, 0.02], 0.2 [0.1, 0.3]"), s);
    }
}
