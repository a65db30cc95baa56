package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** The exp5 report says what intersecting and uniting two re-syncs do for an observer of 1 of 4 peers. */
class Bip158ReportTest {
    private static final Template.Sections TEXT = Template.load("exp5.txt");

    @Test
    void resyncSentenceQuotesOneSyncIntersectionAndUnionForTheOneOfFourObserver() {
        Csv summary = summary();
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
        String s = Bip158Report.resyncAtFourPeers(TEXT, summary);
        assertTrue(s.contains("weaker adversary"), s);
        assertTrue(s.contains("N = 1: P_h(1) 0.0796 [0.05, 0.11], 0.00836 [0.0, 0.02], 0.2 [0.1, 0.3]"), s);
    }

    private static Csv summary() {
        return new Csv(Bip158Tables.SUMMARY_COLUMNS);
    }

    private static void cell(Csv t, String n, String peers, String adversary, String ph1) {
        t.row(n, peers, "NONE", "0", adversary, 3, 1, 0, 1, 1, 1, ph1, ph1, ph1, 0, 0, 0);
    }

    @Test
    void theResyncWordsFollowTheNumbers() {
        Csv t = summary();
        cell(t, "1", "4", "co-occurrence", "0.2");
        cell(t, "1", "4", "co-occurrence + 2 re-syncs (intersection)", "0.3");
        cell(t, "1", "4", "co-occurrence + 2 re-syncs (union)", "0.2");
        String s = Bip158Report.resyncAtFourPeers(TEXT, t);
        assertTrue(
                s.contains("served in both (not a weaker adversary at every N here), the union keeps those it served"
                        + " in either (not a stronger one at every N here)."),
                s);
        assertFalse(s.contains("(a weaker adversary)"), s);
    }

    private static Csv adversaries(String uniform, String cooc, String four) {
        Csv t = summary();
        cell(t, "1", "1", "uniform", uniform);
        cell(t, "1", "1", "co-occurrence", cooc);
        cell(t, "1", "4", "co-occurrence", four);
        return t;
    }

    @Test
    void theAdversariesReadingIsChosenFromTheCells() {
        String usual = Bip158Report.adversariesReading(TEXT, adversaries("0.000145", "0.557", "0.173"));
        assertTrue(usual.startsWith("The uniform adversary drowns the wallet among every script"), usual);
        assertTrue(usual.endsWith("Spreading downloads over peers lowers what each observer learns."), usual);
        String other = Bip158Report.adversariesReading(TEXT, adversaries("0.6", "0.557", "0.7"));
        assertTrue(
                other.startsWith("Ranking by co-occurrence does not beat the uniform adversary at every wallet size"
                        + " here (N = 1: co-occurrence 0.557, uniform 0.6)."),
                other);
        assertTrue(
                other.endsWith("Spreading downloads over 4 peers does not lower what each observer learns at every"
                        + " wallet size here (N = 1, co-occurrence: 0.7 at 4 peers, 0.557 at 1)."),
                other);
        assertFalse(other.contains("drowns"), other);
    }

    private static Csv bip37(double... ph1) {
        Csv t = new Csv(Bip158Tables.BIP37_COLUMNS);
        for (double p : ph1) {
            t.row("pre-HD", 1, 0.0005, 201, 10, 1e-20, 100, 1e-13, p, 0.2);
        }
        return t;
    }

    @Test
    void bip37AndBip158AreSaidToGiveAWalletAwayOnlyWhenBothDo() {
        Csv s = adversaries("0.000145", "0.557", "0.173");
        assertTrue(Bip158Report.bip37Comparison(TEXT, s, bip37(1.0, 0.9)).endsWith("both give a small wallet away."));
        assertEquals(
                "Under the co-occurrence adversary a one-address wallet's BIP 158 downloads give P_h(1) = 0.557, its"
                        + " BIP 37 filter 0.3 at the least (over the target rates).",
                Bip158Report.bip37Comparison(TEXT, s, bip37(1.0, 0.3)));
        assertThrows(IllegalStateException.class, () -> Bip158Report.bip37Comparison(TEXT, summary(), bip37(1.0)));
    }
}
