package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;
import org.junit.jupiter.api.Test;

/** The paper's printed numbers stand beside the recomputed model and the lab's own figures, each with its source. */
class PaperComparisonTest {
    private static final Template.Sections TEXT = Template.load("exp1.txt");

    private static Csv phTable() {
        return phTable("0.81", "0.82");
    }

    private static Csv phTable(String model10, String ours10) {
        Csv ph = new Csv(PaperComparison.PH_COLUMNS);
        ph.row(5, 5, "", "0.91", "0.92", "0.90", "0.93", 3, "1.0", "1.0", "1.0", 1, "0.01", "0.01", "0.91");
        ph.row(
                10,
                10,
                PaperPrinted.printed(10, 10),
                model10,
                ours10,
                "0.80",
                "0.84",
                3,
                "1.0",
                "1.0",
                "1.0",
                1,
                "0.1",
                "0.1",
                "0.81");
        ph.row(15, 15, "", "0.79", "0.93", "0.92", "0.94", 3, "1.0", "1.0", "1.0", 1, "0.07", "0.07", "0.79");
        ph.row(20, 20, "", "0.19", "0.61", "0.60", "0.62", 3, "1.0", "1.0", "1.0", 1, "0.5", "0.5", "0.19");
        return ph;
    }

    /**
     * The paper's model as the paper states it (S_F = P_f |U| plugged in) with the filter bitcoinj really builds
     * gives both printed values at their printed precision: 0.99 at N = 10 and "almost 0.80" (its N = 15 curve).
     * Hand-computed: N = 10 asks for 120 elements at 0.05%: -120 ln(0.0005) / (ln 2)^2 = 1898.4 bits, truncated to
     * 237 bytes = 1896 bits, k = floor(1896 / 120 x ln 2) = floor(10.95) = 10; P_f = (1 - e^{-200/1896})^10 =
     * 1.011e-10, S_F = 3.34e-3, P_h(10) = prod (10 - i)/(10 + S_F - i) = 0.990. N = 15: 257 bytes, k = 10,
     * P_f = (1 - e^{-300/2056})^10 = 2.13e-9, S_F = 0.070, P_h(15) = 0.795.
     */
    @Test
    void paperModelWithBitcoinjSizingReproducesBothPrintedValues() {
        var f10 = PaperPrinted.bitcoinjFilter(10);
        assertEquals(237, f10.sizeBytes());
        assertEquals(10, f10.hashFuncs());
        assertEquals(1.011e-10, PaperComparison.paperFalsePositiveRate(20, 120, Wallets.RATE_2014), 0.002e-10);
        double p10 = PaperComparison.paperModelPh(10, Lab.PAPER_UNIVERSE, 10);
        assertEquals(0.990, p10, 0.0005);
        assertTrue(PaperPrinted.reproducesPointNineNine(p10));
        double p15 = PaperComparison.paperModelPh(15, Lab.PAPER_UNIVERSE, 15);
        assertEquals(0.795, p15, 0.002);
        assertTrue(PaperPrinted.almostPointEight(p15));
        assertTrue(PaperComparison.paperModelPh(5, Lab.PAPER_UNIVERSE, 5) > p10, "N = 5 is above N = 10");
        // The continuous sizing (non-integer k) reproduces neither: its N = 10 value is 0.997.
        double cont = Metrics.ph(
                10, PaperComparison.continuousFalsePositiveRate(20, 120, Wallets.RATE_2014) * Lab.PAPER_UNIVERSE, 10);
        assertFalse(PaperPrinted.reproducesPointNineNine(cont), "continuous: " + cont);
    }

    /** Truncating k raises the rate: bitcoinj's N = 20 filter (k = 10, not 10.93) has the higher P_f. */
    @Test
    void truncatingTheHashCountRaisesTheRate() {
        assertEquals(10, PaperPrinted.bitcoinjFilter(20).hashFuncs());
        assertTrue(PaperComparison.paperFalsePositiveRate(40, 140, Wallets.RATE_2014)
                > PaperComparison.continuousFalsePositiveRate(40, 140, Wallets.RATE_2014));
        String reading = PaperPrinted.paperReading(TEXT, phTable(), Lab.PAPER_UNIVERSE);
        assertTrue(reading.contains("truncating k raises the rate"), reading);
        assertFalse(reading.contains("lower effective rate"), reading);
    }

    /**
     * Ours is the expectation over an integer Poisson count: for N = 1, E[1 / (1 + F)] = (1 - e^{-lambda}) / lambda
     * exactly, above the paper's plug-in 1 / (1 + lambda) (Jensen).
     */
    @Test
    void oursIsThePoissonExpectationAboveThePlugIn() {
        for (double lambda : new double[] {0.1, 1, 3}) {
            double exact = (1 - Math.exp(-lambda)) / lambda;
            assertEquals(exact, PaperComparison.expectedPh(1, lambda, 1), 1e-12, "lambda = " + lambda);
            assertTrue(exact > Metrics.ph(1, lambda, 1));
        }
        // N = 2, j = 2: P_h = 2 / ((2 + F)(1 + F)); at lambda = 1, sum_F e^{-1}/F! x 2/((F+1)(F+2)) = 2(1 - 2/e).
        assertEquals(2 * (1 - 2 / Math.E), PaperComparison.expectedPh(2, 1, 2), 1e-12);
    }

    @Test
    void printedNumbersSitBesideTheModelAndTheLabsFigureForTheSameCell() {
        Csv t = PaperPrinted.printedTable(TEXT, 33_000_000L, phTable());
        List<String> n10 = t.rows().get(0);
        assertEquals("0.99", n10.get(1));
        assertEquals("0.99", n10.get(2), "the model column is the paper's model at its 33M addresses");
        assertEquals("0.82 [0.80, 0.84]", n10.get(3), "the lab column is ours with its interval");
        assertTrue(n10.get(5).startsWith("The paper's model reproduces it"), n10.get(5));
        assertEquals("N = 5: 0.92; N = 10: 0.82; N = 15: 0.93", t.rows().get(1).get(3));
        assertTrue(
                t.rows()
                        .get(1)
                        .get(5)
                        .startsWith("The paper's model reproduces it as its N = 15 curve: P_h(15) = 0.795"),
                t.rows().get(1).get(5));
        for (List<String> r : t.rows()) {
            assertFalse(r.get(1).isEmpty(), "every row is a printed number: " + r);
            assertTrue(r.get(4).contains("ebrary.net"), "every row names where it was read: " + r);
            assertFalse(r.get(5).isEmpty(), "every row says why the figures differ: " + r);
            assertFalse(r.get(5).contains("three times"), "no typed-in ratio: " + r);
        }
    }

    @Test
    void differenceSentenceFollowsOursAgainstTheModelAtTheSameUniverse() {
        String higher = PaperPrinted.printedTable(TEXT, 33_000_000L, phTable("0.81", "0.82"))
                .rows()
                .get(0)
                .get(5);
        assertTrue(
                higher.contains("is 0.82 where the paper's model at the same universe gives 0.81: higher, as Jensen"),
                higher);
        String equal = PaperPrinted.printedTable(TEXT, 33_000_000L, phTable("1.0", "1.0"))
                .rows()
                .get(0)
                .get(5);
        assertTrue(equal.contains("equal at three significant digits"), equal);
        String quick = PaperPrinted.printedTable(TEXT, 200_000L, phTable("1.0", "1.0"))
                .rows()
                .get(0)
                .get(5);
        assertTrue(quick.contains("Ours at this run's 200,000 addresses (not the paper's 33,000,000)"), quick);
    }

    @Test
    void newWalletCapacityIsMeasuredOnBitcoinjsFilterNotCopiedFromThePaper() {
        Csv t = PaperPrinted.printedTable(TEXT, 33_000_000L, phTable());
        List<String> m = t.rows().get(2);
        assertEquals("102", m.get(1));
        // 2 elements (pubkey and hash) + 100 headroom, and bitcoinj's 201-byte, 10-function filter at 0.05%
        assertEquals("102 (bitcoinj's filter: 201 bytes, 10 hash functions)", m.get(3));
    }

    @Test
    void universeRowSaysWhenQuickModeTestsFewerAddressesThanThePaper() {
        assertTrue(PaperPrinted.printedTable(TEXT, 33_000_000L, phTable())
                .rows()
                .get(3)
                .get(5)
                .startsWith("Same size"));
        assertTrue(PaperPrinted.printedTable(TEXT, 1_000_000L, phTable())
                .rows()
                .get(3)
                .get(5)
                .startsWith("Quick mode"));
    }

    @Test
    void onlyThePrintedPhCellIsFilledAndFourSourcesAreQuoted() {
        assertEquals(4, TEXT.get("paper.printed.quotes").lines(Map.of()).size());
        assertEquals("0.99", PaperPrinted.printed(10, 10));
        for (int n : PaperComparison.PAPER_NS) {
            for (int j = 1; j <= n; j++) {
                if (n != 10 || j != 10) {
                    assertEquals("", PaperPrinted.printed(n, j), "N = " + n + ", j = " + j);
                }
            }
        }
    }

    @Test
    void missingPhCellIsAClearError() {
        Csv empty = new Csv(phTable().header().toArray(String[]::new));
        assertThrows(IllegalStateException.class, () -> PaperPrinted.printedTable(TEXT, 33_000_000L, empty));
    }

    /** A P_h table whose every N has ours {@code ours}, its plug-in {@code plugin} and mean count {@code meanFp}. */
    private static Csv flatTable(String ours, String plugin, String sf, String meanFp) {
        Csv ph = new Csv(PaperComparison.PH_COLUMNS);
        for (int n : PaperComparison.PAPER_NS) {
            ph.row(
                    n,
                    n,
                    PaperPrinted.printed(n, n),
                    plugin,
                    ours,
                    ours,
                    ours,
                    3,
                    "1.0",
                    "1.0",
                    "1.0",
                    1,
                    sf,
                    meanFp,
                    plugin);
        }
        return ph;
    }

    @Test
    void theJensenGapIsNamedWhereItIsLargestAndNotClaimedWhereThereIsNone() {
        String gap = PaperPrinted.paperReading(TEXT, phTable(), Lab.PAPER_UNIVERSE);
        assertTrue(gap.contains("the gap is largest at N = 20 here (0.61 expected against 0.19 plugged in"), gap);
        assertFalse(gap.contains("agree at three significant digits"), gap);
        String none = PaperPrinted.paperReading(TEXT, flatTable("1.0", "1.0", "0.01", "0.01"), 200_000L);
        assertTrue(none.contains("ours can only be higher, and here the two agree at three significant digits"), none);
        assertFalse(none.contains("the gap is largest"), none);
    }

    @Test
    void theSizingSentenceFollowsHowFarOurCountIsFromTheModels() {
        String same = PaperPrinted.paperReading(TEXT, flatTable("0.9", "0.8", "0.1", "0.105"), Lab.PAPER_UNIVERSE);
        assertTrue(same.contains("within 5% of S_F at every N"), same);
        assertTrue(same.contains("the sizing is the same on both sides"), same);
        String apart = PaperPrinted.paperReading(TEXT, flatTable("0.9", "0.8", "0.1", "0.13"), Lab.PAPER_UNIVERSE);
        assertTrue(apart.contains("within 30% of S_F at every N"), apart);
        assertTrue(apart.contains("our filters' bit densities differ from the formula's"), apart);
        assertFalse(apart.contains("the sizing is the same"), apart);
    }

    @Test
    void oursBelowTheModelIsCalledLower() {
        String lower = PaperPrinted.printedTable(TEXT, 33_000_000L, phTable("0.83", "0.82"))
                .rows()
                .get(0)
                .get(5);
        assertTrue(lower.endsWith("is 0.82 where the paper's model at the same universe gives 0.83: lower."), lower);
        assertFalse(lower.contains("Jensen"), lower);
    }

    @Test
    void theN15SentenceReadsTheModelsCurves() {
        assertEquals("paper.printed.n15.reproduces", PaperPrinted.n15Section(0.99, 0.98, 0.795));
        assertEquals("paper.printed.n15.notLowest", PaperPrinted.n15Section(0.99, 0.78, 0.795));
        assertEquals("paper.printed.n15.differs", PaperPrinted.n15Section(0.99, 0.98, 0.9));
        assertEquals("paper.printed.n15.differs", PaperPrinted.n15Section(0.99, 0.98, 0.80));
    }

    @Test
    void theCapacityRowSaysNoDifferenceOnlyWhenTheCapacityIsThePrintedOne() {
        assertTrue(PaperPrinted.capacityDifference(TEXT, 102).startsWith("No difference"));
        String other = PaperPrinted.capacityDifference(TEXT, 104);
        assertEquals("The lab's new wallet asks for a filter of 104 elements, not the printed 102.", other);
    }

    /**
     * A countermeasure table for one N: fp and bytes per row in {@link PaperComparison#COUNTERMEASURES}'s order, the
     * elements as the experiment inserts them unless {@code noPubElements} says otherwise.
     */
    private static Csv counterTable(double[] fps, int[] bytes, int noPubElements, double spentFp) {
        Csv cm = new Csv(PaperComparison.COUNTER_COLUMNS);
        int[] elements = {40, 40, 50, noPubElements, 60, 120};
        for (int v = 0; v < fps.length; v++) {
            cm.row(
                    20,
                    PaperComparison.COUNTERMEASURES[v],
                    10,
                    bytes[v],
                    elements[v],
                    fps[v],
                    fps[v],
                    fps[v],
                    0.9,
                    0.9,
                    0.9,
                    v == 0 ? spentFp : 0.0);
        }
        return cm;
    }

    private static final double[] FPS = {0.5, 1e-8, 0.5, 0.001, 20, 5000};
    private static final int[] BYTES = {276, 276, 276, 276, 276, 276};

    @Test
    void theCountermeasureReadingStatesWhatTheRowsShow() {
        String r = PaperComparison.counterReading(TEXT, counterTable(FPS, BYTES, 20, 1e-8));
        assertTrue(
                r.startsWith("N = 20, none: pubkey + hash, one filter: 0.5 false positives, P_h(1) = 0.9 [0.9, 0.9]."),
                r);
        assertTrue(
                r.endsWith("A persistent tweak is what keeps restarts from shrinking the false positives; leaving the"
                        + " public key out halves the elements, so a single filter yields fewer false positives, but it"
                        + " removes the pubkey-and-hash test that otherwise leaves almost none for addresses that have"
                        + " spent; noise elements raise the false positives at no bandwidth cost beyond the filter."),
                r);
    }

    @Test
    void eachCountermeasureClauseFollowsTheNumbersWhenTheyDisagree() {
        double[] shrinks = FPS.clone();
        shrinks[2] = 0.1;
        assertTrue(PaperComparison.counterReading(TEXT, counterTable(shrinks, BYTES, 20, 1e-8))
                .contains("Here the restarts do not read as a persistent tweak keeping the false positives and a new"
                        + " tweak shrinking them (N = 20: one filter 0.5, two filters intersected with a persistent"
                        + " tweak 0.1, with a new tweak 1.00000e-08);"));
        String elements = PaperComparison.counterReading(TEXT, counterTable(FPS, BYTES, 30, 1e-8));
        assertTrue(elements.contains("leaving the public key out leaves 30 of 40 elements at N = 20, so"), elements);
        double[] notFewer = FPS.clone();
        notFewer[3] = 0.7;
        String nf = PaperComparison.counterReading(TEXT, counterTable(notFewer, BYTES, 20, 1e-8));
        assertTrue(
                nf.contains("halves the elements, yet a single filter does not yield fewer false positives here"
                        + " (N = 20: 0.7 against 0.5),"),
                nf);
        String some = PaperComparison.counterReading(TEXT, counterTable(FPS, BYTES, 20, 3.5));
        assertTrue(
                some.contains("which otherwise leaves up to 3.5 false positives for addresses that have spent;"), some);
        assertFalse(some.contains("almost none"), some);
        double[] quiet = FPS.clone();
        quiet[4] = 0.2;
        String noise = PaperComparison.counterReading(TEXT, counterTable(quiet, BYTES, 20, 1e-8));
        assertTrue(
                noise.endsWith("noise elements do not raise the false positives at every N here (N = 20, noise: +N"
                        + " random elements: 0.2 against 0.5)."),
                noise);
        int[] grown = BYTES.clone();
        grown[5] = 400;
        String cost = PaperComparison.counterReading(TEXT, counterTable(FPS, grown, 20, 1e-8));
        assertTrue(
                cost.endsWith("noise elements raise the false positives, and the filter grows (N = 20, noise: +4N"
                        + " random elements: 400 bytes against 276)."),
                cost);
    }
}
