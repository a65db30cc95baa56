package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** Experiment 3's reading is chosen from its summary: what the rows show, not what the full run once showed. */
class PubKeyAndHashExperimentTest {
    private static final Template.Sections TEXT = Template.load("exp3.txt");

    private static Csv summary() {
        return new Csv(PubKeyAndHashExperiment.SUMMARY_COLUMNS);
    }

    private static void row(Csv t, double rate, int n, double both, double analytic, double ph1) {
        t.row(rate, n, 3, 100.0, 100.0, both, analytic, 0.1, ph1, ph1);
    }

    @Test
    void aFullRunsNumbersGiveTheHandfulAndTheLine() {
        Csv t = summary();
        row(t, 0.0005, 100, 0.333333, 0.0177635, 0.9967);
        row(t, 0.0005, 500, 1.0, 2.14187, 0.998007);
        row(t, 0.005, 500, 291.0, 320.883, 0.632658);
        String r = PubKeyAndHashExperiment.reading(TEXT, t, 33_000_000L);
        assertTrue(
                r.contains("P_f^2 (the measured points sit on the P_f^2 line, down to where a few matches remain)."),
                r);
        assertTrue(
                r.contains("leaves only a handful of false positives among 33,000,000 addresses, so P_h(1) is near 1"),
                r);
    }

    @Test
    void noMatchesAtAllIsNoneAndNoLineIsClaimed() {
        Csv t = summary();
        row(t, 0.0005, 10, 0.0, 2e-6, 1.0);
        row(t, 0.005, 100, 0.0, 0.07, 1.0);
        String r = PubKeyAndHashExperiment.reading(TEXT, t, 200_000L);
        assertTrue(
                r.contains(
                        "(this run expects too few matches of both to set the measured points against the P_f^2 line)"),
                r);
        assertTrue(r.contains("leaves no false positive among 200,000 addresses in this run, so P_h(1) is 1"), r);
        assertFalse(r.contains("handful"), r);
        assertFalse(r.contains("sit on"), r);
    }

    @Test
    void manyMatchesAndPointsOffTheLineAreSaid() {
        Csv t = summary();
        row(t, 0.0005, 100, 40.0, 38.0, 0.71);
        row(t, 0.005, 500, 600.0, 320.883, 0.4);
        String r = PubKeyAndHashExperiment.reading(TEXT, t, 33_000_000L);
        assertTrue(
                r.contains("(though here the measured points stray from the P_f^2 line: at rate 0.005, N = 500, 600.0"
                        + " matches on average where P_f^2 x |others| gives 320.883)"),
                r);
        assertTrue(
                r.contains("still leaves 40.0 false positives on average among 33,000,000 addresses at N = 100, where"
                        + " P_h(1) is 0.71"),
                r);
        assertFalse(r.contains("near 1"), r);
    }

    @Test
    void aSummaryWithoutThe2014RateIsAClearError() {
        Csv t = summary();
        row(t, 0.005, 500, 600.0, 320.883, 0.4);
        assertThrows(IllegalStateException.class, () -> PubKeyAndHashExperiment.reading(TEXT, t, 200_000L));
    }
}
