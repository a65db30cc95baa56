package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** Experiment 1's reading says what the summary's numbers show, and something else when they show something else. */
class SingleFilterNotesTest {
    private static final Template.Sections TEXT = Template.load("exp1.txt");

    private static Csv summary() {
        return new Csv(SingleFilterExperiment.SUMMARY_COLUMNS);
    }

    private static void row(
            Csv t, String model, double rate, int n, double fp, double analytic, double naive, double ph1) {
        t.row(model, rate, n, 4, 2, 201, 10, fp, fp, fp, fp, analytic, naive, ph1, ph1, ph1, ph1, 0.0);
    }

    /** Y2014 at two rates and two sizes, and today's one-address wallet, all as the paper's result has it. */
    private static Csv agreeing() {
        Csv t = summary();
        row(t, "Y2014", 0.0001, 1, 1e-12, 1.05e-12, 20.0, 1.0);
        row(t, "Y2014", 0.0005, 1, 3e-12, 3e-12, 100.0, 1.0);
        row(t, "Y2014", 0.0001, 100, 60.0, 62.0, 200.0, 0.6);
        row(t, "Y2014", 0.0005, 100, 70.0, 71.0, 100.0, 0.5);
        row(t, "TODAY", 0.00001, 1, 1.2, 1.25, 2.0, 0.4);
        return t;
    }

    @Test
    void aReadingThatMatchesTheNumbersIsTheOriginalSentence() {
        String r = SingleFilterNotes.text(TEXT, agreeing(), 200_000L);
        assertTrue(r.contains("its real false-positive rate is far below the target, so the adversary sees"), r);
        assertTrue(r.contains("This agrees with the paper's qualitative result"), r);
        assertTrue(r.contains("The analytic column follows the measured one closely because"), r);
        assertFalse(r.contains("departs"), r);
    }

    @Test
    void eachReadingFollowsTheNumbersWhenTheyDisagree() {
        Csv t = summary();
        row(t, "Y2014", 0.0001, 1, 1e-12, 1.05e-12, 20.0, 0.9);
        row(t, "Y2014", 0.0005, 1, 90.0, 90.0, 100.0, 0.95);
        row(t, "Y2014", 0.0001, 100, 60.0, 80.0, 50.0, 0.6);
        String r = SingleFilterNotes.text(TEXT, t, 200_000L);
        assertTrue(r.contains("its real false-positive rate is below the target, so"), r);
        assertTrue(
                r.contains("This departs in part from the paper's qualitative result (the fewer addresses a client has,"
                        + " relative to the filter's capacity, the more its filter gives away, and lowering the target"
                        + " rate makes it worse): P_h(1) is 0.9 at Y2014 at rate 0.0001, N = 1 against 0.95 at Y2014 at"
                        + " rate 0.0005, N = 1."),
                r);
        assertFalse(r.contains("This agrees"), r);
        assertTrue(
                r.contains("The analytic column departs from the measured one by up to 33% (Y2014 at rate 0.0001,"
                        + " N = 100: 80.0 against 60.0), although"),
                r);
        assertTrue(
                r.contains("the naive estimate (target rate x universe) does not overstate the false positives of"
                        + " every filter here (Y2014 at rate 0.0001, N = 100: 50.0 against 60.0)."),
                r);
        assertFalse(r.contains("whenever a filter is below capacity"), r);
    }

    @Test
    void aOneAddressFilterAtItsTargetIsNotCalledBelowIt() {
        Csv t = summary();
        row(t, "Y2014", 0.0005, 1, 120.0, 120.0, 100.0, 0.01);
        assertTrue(SingleFilterNotes.text(TEXT, t, 200_000L)
                .contains("its real false-positive rate is not below the target"));
    }
}
