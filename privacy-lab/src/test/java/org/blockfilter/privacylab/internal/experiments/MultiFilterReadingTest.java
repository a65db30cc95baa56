package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** Experiment 2's readings are chosen from its tables: how many filters expose a wallet, and what one restart does. */
class MultiFilterReadingTest {
    private static final Template.Sections TEXT = Template.load("exp2.txt");

    private static Csv summary(String setting, double... ph1) {
        Csv t = new Csv(MultiFilterExperiment.SUMMARY_COLUMNS);
        add(t, setting, ph1);
        return t;
    }

    private static void add(Csv t, String setting, double... ph1) {
        for (int j = 0; j < ph1.length; j++) {
            t.row(setting, j + 1, 2, 1.0, 1.0, ph1[j], ph1[j], 0.0);
        }
    }

    private static Csv filters(int... bytes) {
        Csv t = new Csv(MultiFilterExperiment.FILTERS_COLUMNS);
        for (int b : bytes) {
            t.row("s", 0, 1, 300, b, 10, 600, 0.001, 5);
        }
        return t;
    }

    @Test
    void twoFiltersAndNoLargeWalletSayNothingAboutLargeWallets() {
        Csv s = summary("small", 0.8, 1.0, 1.0);
        add(s, "today", 0.1, 0.999, 1.0);
        String r = MultiFilterExperiment.reading(TEXT, s, filters(600, 700));
        assertTrue(
                r.startsWith(
                        "As in the paper, two filters of the same wallet with different tweaks are enough to expose it"),
                r);
        assertFalse(r.contains("Large wallets"), r);
        assertTrue(r.contains("Two peers of the same bitcoinj PeerGroup"), r);
    }

    @Test
    void aWalletThatNeedsMoreFiltersIsNamedAndCappedFiltersAreRead() {
        Csv s = summary("paper", 0.17, 0.998, 1.0, 1.0);
        add(s, "very large 2014 wallet", 0.018, 0.356, 0.943, 0.998);
        String r = MultiFilterExperiment.reading(TEXT, s, filters(12339, 36000));
        assertTrue(
                r.contains("a few filters of the same wallet with different tweaks are enough to expose it: the false"
                        + " positives of independent filters rarely coincide, so after 2 to 4 intersections nearly only the"
                        + " real addresses remain and P_h(1) goes to 1 (4 for 'very large 2014 wallet')."),
                r);
        assertTrue(r.contains("Large wallets are no exception. Their filters hit BIP 37's 36,000-byte cap"), r);
        assertFalse(r.contains("two filters"), r);
    }

    @Test
    void aWalletNeverExposedIsSaidSo() {
        Csv s = summary("paper", 0.17, 0.998);
        add(s, "very large 2014 wallet", 0.018, 0.356);
        String r = MultiFilterExperiment.reading(TEXT, s, filters(36000));
        assertTrue(
                r.startsWith("The false positives of independent filters rarely coincide, so every filter intersected"
                        + " leaves fewer of them, but not every wallet measured is exposed: after 2 filters 'very large 2014"
                        + " wallet' has P_h(1) = 0.356."),
                r);
        assertFalse(r.contains("Large wallets are no exception"), r);
        assertFalse(r.contains("enough to expose it"), r);
    }

    private static Csv intersections(double fp1, double phN2) {
        Csv t = new Csv(Bip37AdversaryExperiment.INTERSECTION_COLUMNS);
        t.row("today", 1, 200, 20, fp1, fp1, fp1, 0.14, 0.14, 0.14, "P_h(N)", 7e-24, 7e-24, 7e-24);
        t.row("today", 2, 200, 20, 0.0005, 0.0005, 0.0005, 1.0, 1.0, 1.0, "P_h(N)", phN2, phN2, phN2);
        return t;
    }

    @Test
    void oneRestartsReadingComesFromTodaysRows() {
        String full = Bip37Readings.todayReading(TEXT, intersections(123.0, 1.0), "today");
        assertTrue(
                full.endsWith("so even today's wallet, whose single filter hides 20 addresses among about 120 false"
                        + " positives, is named completely after one restart."),
                full);
        String small = Bip37Readings.todayReading(TEXT, intersections(0.7461, 0.6), "today");
        assertTrue(
                small.endsWith("hides 20 addresses among about 0.75 false positives, is named completely only with"
                        + " probability 0.6 after one restart."),
                small);
        assertThrows(
                IllegalStateException.class,
                () -> Bip37Readings.todayReading(TEXT, intersections(1, 1), "no such setting"));
    }

    private static Csv estimates(double share15, double sd15, double share100, double sd100, int today20) {
        Csv t = new Csv(Bip37AdversaryExperiment.ESTIMATE_COLUMNS);
        estimate(t, "Y2014", 5, 10, 1.0, 0.15);
        estimate(t, "Y2014", 15, 30, share15, sd15);
        estimate(t, "Y2014", 100, 200, share100, sd100);
        estimate(t, "TODAY", 5, 1090, 0.0, 4.9);
        estimate(t, "TODAY", 20, today20, 0.0, 5.0);
        return t;
    }

    private static void estimate(Csv t, String model, int n, int elements, double share, double sd) {
        t.row(
                model, 0.0005, n, 10, elements, elements, elements, elements, sd, n, n, n, 1.0, share, share, share,
                1.0, 1.0, 1.0, 1.0);
    }

    @Test
    void theEstimateReadingFollowsTheTable() {
        String usual = Bip37Readings.estimateFindings(TEXT, estimates(0.945, 0.486, 0.305, 2.3, 1090));
        assertTrue(
                usual.startsWith("For the pre-HD wallet the paper measured, the set bits give N almost exactly for"
                        + " small wallets"),
                usual);
        assertTrue(
                usual.contains("at N = 100 the estimate's noise is a few elements and N_hat is often off by one."),
                usual);
        assertTrue(usual.contains("the element count, and so n_hat, is the same for every such N"), usual);
        String other = Bip37Readings.estimateFindings(TEXT, estimates(0.7, 0.486, 0.8, 0.6, 1100));
        assertTrue(
                other.startsWith("For the pre-HD wallet the paper measured, the set bits do not give N exactly for"
                        + " every small wallet here (N = 15: N_hat is exactly N for 0.7 of filters, n_hat has sd 0.486"
                        + " elements);"),
                other);
        assertTrue(
                other.contains("at N = 100 N_hat is exactly N for 0.8 of filters (n_hat has sd 0.6 elements)."), other);
        assertTrue(
                other.endsWith("but here the element count is not the same for every N up to 20 (TODAY: 1090, 1100"
                        + " elements), so n_hat tells such wallets apart."),
                other);
        assertFalse(other.contains("almost exactly"), other);
    }

    private static Csv kj(double restartOrder, double todayNHat) {
        Csv t = new Csv(Bip37AdversaryExperiment.KJ_COLUMNS);
        t.row("paper", 1, 5, 100, 0.9, 0.8, 1.0, 3070.0, 3071.2, 1e-9, 1.0, 1.0, 1.0);
        t.row("restarts", 1, 5, 100, restartOrder, 0.9, 1.0, 20.0, 19.7, 1e-9, 1.0, 1.0, 1.0);
        t.row("today", 1, 5, 100, 1.0, 0.9, 1.0, 20.0, 20.57, 1e-9, 1.0, 1.0, 1.0);
        t.row("today", 2, 4, 100, 1.0, 0.9, 1.0, 20.0, todayNHat, 1e-9, 1.0, 1.0, 1.0);
        return t;
    }

    @Test
    void theKjReadingFollowsTheOrderAndTheCountTheAdversaryFinds() {
        java.util.List<String> restarts = java.util.List.of("restarts", "today");
        String usual = Bip37Readings.kjReading(TEXT, kj(1.0, 31.45), restarts, "today");
        assertTrue(
                usual.contains("For the restart settings all five filters hold the same addresses, so every order is"
                        + " right. For today's wallet the n_hat of the larger filters of K_j often lies above"),
                usual);
        String other = Bip37Readings.kjReading(TEXT, kj(0.95, 19.0), restarts, "today");
        assertTrue(other.contains("yet not every order is right here ('restarts': 0.95)."), other);
        assertTrue(
                other.contains("does not overshoot the true count for every j here (j = 2: 19.0 against 20.0);"),
                other);
        assertFalse(other.contains("so its N_hat overshoots"), other);
    }
}
