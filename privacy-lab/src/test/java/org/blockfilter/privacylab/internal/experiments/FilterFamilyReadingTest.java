package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** Experiment 7's rule check names the cells that depart from the rule, and says so when none does. */
class FilterFamilyReadingTest {
    private static final Template.Sections TEXT = Template.load("exp7.txt");

    private static Csv rules() {
        return new Csv(FilterFamilyExperiment.RULES_COLUMNS);
    }

    @Test
    void departingCellsAreNamedOnceEach() {
        Csv t = rules();
        t.row(7400, 0.01, 9.591, 7, 0.0102, 0.0101, 0.0104, 0.00997, 1.03, 9.585, 1.001);
        t.row(7400, 1e-6, 28.76, 20, 2.01e-6, 1.75e-6, 2.31e-6, 9.992e-7, 2.01, 28.76, 1.0);
        t.row(7400, 1.274e-6, 28.26, 20, 2.63e-6, 2.33e-6, 2.97e-6, 1.272e-6, 2.07, 28.25, 1.0);
        t.row(1000, 1e-4, 19.17, 13, 0.00003, 0.00002, 0.00004, 0.0001, 0.3, 19.17, 1.0);
        assertEquals(
                "which of these causes the 2x at k = 20 and n = 7,400 and the 0.30x at k = 13 and n = 1,000 was not"
                        + " tested",
                FilterFamilyReadings.departures(TEXT, t));
    }

    @Test
    void noDepartureIsSaidWhenTheIntervalsHoldTheRule() {
        Csv t = rules();
        t.row(1000, 1e-6, 28.76, 20, 2e-6, 1e-7, 5e-6, 1e-6, 2.0, 28.76, 1.0);
        assertEquals(
                "no cell here is 1.5x or more off the rule with an interval that excludes it",
                FilterFamilyReadings.departures(TEXT, t));
    }

    private static FilterFamilyExperiment.Row row(String family, double target, double bitsPerKey, long fp) {
        return new FilterFamilyExperiment.Row(
                family, family, "", target, 1000, bitsPerKey * 1000, 1_000_000, fp, Double.NaN, "", 0);
    }

    @Test
    void blockedBloomIsCalledSlowOnlyWhenItFallsBehindAtTheLowestTarget() {
        java.util.List<FilterFamilyExperiment.Row> slow = java.util.List.of(
                row("Bloom", 0.01, 9.6, 10_000),
                row("Bloom", 1e-4, 19.2, 100),
                row("blocked Bloom", 0.01, 10, 12_500),
                row("blocked Bloom", 1e-4, 20, 1400));
        assertEquals(
                "Blocked Bloom (FastFilter's variant sets 4 bits per key in two 64-bit words, whatever the size) cannot"
                        + " reach low rates: more bits per key lower its rate far more slowly than a standard Bloom"
                        + " filter's. It is a speed structure, not a space one.",
                FilterFamilyReadings.blockedReading(TEXT, slow, 1000));
        java.util.List<FilterFamilyExperiment.Row> close =
                java.util.List.of(row("Bloom", 1e-4, 19.2, 100), row("blocked Bloom", 1e-4, 20, 300));
        assertEquals(
                "Blocked Bloom (FastFilter's variant sets 4 bits per key in two 64-bit words, whatever the size) keeps"
                        + " up with a standard Bloom filter here: at the lowest target, 0.0001, it measures 0.0003 with"
                        + " 20.00 bits per key where Bloom measures 0.0001 with 19.20.",
                FilterFamilyReadings.blockedReading(TEXT, close, 1000));
    }

    @Test
    void theRibbonRoundingNamesEveryTargetWhereItCostsMost() {
        java.util.List<FilterFamilyExperiment.Row> rows = java.util.List.of(
                row("ribbon", 0.01, 7.7, 1), row("ribbon", 0.001, 11, 1), row("ribbon", 1e-4, 15.5, 1));
        assertEquals(
                "1e-2 (r = 7 gives 2^-7 = 0.0078, not 0.01) and 1e-4 (r = 14 gives 2^-14 = 0.000061, not 0.0001)",
                FilterFamilyReadings.ribbonRounding(TEXT, rows));
        assertEquals(
                "1e-5 (r = 17 gives 2^-17 = 0.0000076, not 0.00001)",
                FilterFamilyReadings.ribbonRounding(
                        TEXT, java.util.List.of(row("ribbon", 1e-3, 11, 1), row("ribbon", 1e-5, 18, 1))));
    }
}
