package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.blockfilter.filters.Bip158;
import org.blockfilter.privacylab.internal.filters.FilterRates;
import org.blockfilter.privacylab.internal.filters.QuotientFilter;
import org.blockfilter.privacylab.internal.filters.RibbonFilter;
import org.blockfilter.privacylab.internal.report.Stats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Experiment 7 in quick mode: every filter's space and rate against its paper's formula and the bound. */
class FilterFamilyExperimentTest {
    /** A two-sided 99.9% normal quantile: with ~30 checked cells, a correct formula is almost never outside. */
    private static List<FilterFamilyExperiment.Row> rows;

    @BeforeAll
    static void measure(@TempDir Path out) {
        Lab lab =
                new Lab(2014, true, out, 1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        rows = FilterFamilyMeasure.measure(lab, 2_000);
    }

    private static List<FilterFamilyExperiment.Row> family(String name) {
        return rows.stream().filter(r -> r.family().equals(name)).toList();
    }

    private static void assertFormulaInsideInterval(FilterFamilyExperiment.Row r) {
        double[] ci = Stats.wilson(r.falsePositives(), r.queries(), FilterRates.Z999);
        assertTrue(
                r.formulaRate() >= ci[0] && r.formulaRate() <= ci[1],
                r.implementation() + " " + r.parameters() + ": formula " + r.formulaRate() + " outside [" + ci[0] + ", "
                        + ci[1] + "] (" + r.falsePositives() + "/" + r.queries() + ")");
    }

    @Test
    void everyFamilyIsMeasuredAtEveryTargetOrAtItsFixedRate() {
        for (String fam : List.of("Bloom", "counting Bloom", "blocked Bloom", "GCS", "quotient", "ribbon", "bound")) {
            assertEquals(FilterFamilyExperiment.TARGETS.length, family(fam).size(), fam);
        }
        assertEquals(2, family("cuckoo").size());
        assertEquals(2, family("xor").size());
        assertEquals(2, family("xor+ / fuse").size());
        assertTrue(rows.stream()
                .filter(r -> !r.family().equals("bound"))
                .allMatch(r -> r.queries() >= 100_000 && r.bits() > 0));
    }

    @Test
    void gcsMatchesItsExactRateAndSitsAboveTheBoundByLessThanTwoBits() {
        for (FilterFamilyExperiment.Row r : family("GCS")) {
            assertFormulaInsideInterval(r);
            assertTrue(r.formulaRate() <= r.target() * 1.0000001, r.parameters());
            assertTrue(r.bitsPerElement() > r.boundBitsPerElement(), r.parameters());
            assertTrue(r.bitsPerElement() < r.boundBitsPerElement() + 2, r.parameters());
        }
        FilterFamilyExperiment.Row bip = family("GCS").get(FilterFamilyExperiment.TARGETS.length - 1);
        assertEquals("P=" + Bip158.BASIC_P + " M=" + Bip158.BASIC_M, bip.parameters());
    }

    @Test
    void gcsParameterFollowsBip158Ratio() {
        assertEquals(Bip158.BASIC_P, FilterFamilyMeasure.gcsP(Bip158.BASIC_M));
        assertEquals(6, FilterFamilyMeasure.gcsP(100));
        assertEquals(16, FilterFamilyMeasure.gcsP(100_000));
    }

    @Test
    void xorAndCuckooFiltersMatchTheirPapersRates() {
        for (FilterFamilyExperiment.Row r : rows) {
            if (r.family().equals("xor+ / fuse")
                    || r.family().equals("cuckoo")
                    || r.implementation().equals("FastFilter Xor16")) {
                assertFormulaInsideInterval(r);
            }
        }
        // FastFilter 1.0.2's Xor8 measures ~10% above 2^-8 in full mode (0.00436 [0.00423, 0.00449] at n = 7,400 and
        // 0.00426 [0.00413, 0.00439] at n = 1,000,000, 1M queries each); the experiment reports it, the test bounds it.
        FilterFamilyExperiment.Row xor8 = family("xor").get(0);
        assertEquals("FastFilter Xor8", xor8.implementation());
        assertTrue(xor8.measuredRate() > 0.9 / 256 && xor8.measuredRate() < 1.5 / 256, "Xor8 " + xor8.measuredRate());
    }

    @Test
    void bloomFiltersMatchTheFormulaAtModerateRates() {
        for (String fam : List.of("Bloom", "counting Bloom")) {
            for (FilterFamilyExperiment.Row r : family(fam)) {
                if (r.target() >= 1e-4) {
                    assertFormulaInsideInterval(r);
                }
            }
        }
    }

    @Test
    void bloomSpaceFollowsThe144RuleAndCountingBloomIsFourTimesIt() {
        List<FilterFamilyExperiment.Row> bloom = family("Bloom");
        List<FilterFamilyExperiment.Row> counting = family("counting Bloom");
        for (int i = 0; i < bloom.size(); i++) {
            FilterFamilyExperiment.Row r = bloom.get(i);
            double rule = 1.44 * FilterFamilyExperiment.log2(1 / r.target());
            assertEquals(rule, r.bitsPerElement(), 0.01 * rule, "1.44 log2(1/eps) at " + r.target());
            assertEquals(4 * r.bitsPerElement(), counting.get(i).bitsPerElement(), 0.2, "counting at " + r.target());
        }
        double perDecade = FilterFamilyExperiment.bitsPerDecade(bloom);
        assertTrue(perDecade > 4.0 && perDecade < 6.0, "bits per decade " + perDecade);
        assertEquals(4.7925, FilterFamilyExperiment.BLOOM_BITS_PER_DECADE, 0.0001);
        assertEquals(0.6185, FilterFamilyExperiment.BLOOM_BASE, 0.0001);
    }

    @Test
    void quotientFiltersMatchBenderFormulaAndTakeTwoToTheQTimesRPlusThreeBits() {
        for (FilterFamilyExperiment.Row r : family("quotient")) {
            assertFormulaInsideInterval(r);
            assertTrue(r.formulaRate() <= r.target(), r.parameters());
            Matcher m = Pattern.compile("q=(\\d+) r=(\\d+) load=([0-9.]+)").matcher(r.parameters());
            assertTrue(m.matches(), r.parameters());
            int q = Integer.parseInt(m.group(1));
            int rem = Integer.parseInt(m.group(2));
            assertEquals((1L << q) * (rem + 3), r.bits(), 0.0, r.parameters());
            assertEquals(FilterFamilyMeasure.quotientLoad(r.n()), (double) r.n() / (1L << q), 1e-12);
            assertTrue(QuotientFilter.expectedRate((double) r.n() / (1L << q), rem - 1) > r.target(), "r not minimal");
        }
    }

    @Test
    void ribbonFiltersMatchTwoToTheMinusRAndTakeSlotsTimesRBits() {
        for (FilterFamilyExperiment.Row r : family("ribbon")) {
            assertFormulaInsideInterval(r);
            Matcher m = Pattern.compile("r=(\\d+) m=(\\d+) \\(1\\+[0-9.]+\\)n seeds tried=(\\d+)")
                    .matcher(r.parameters());
            assertTrue(m.matches(), r.parameters());
            int bits = Integer.parseInt(m.group(1));
            int slots = Integer.parseInt(m.group(2));
            assertEquals(FilterFamilyMeasure.ribbonBits(r.target()), bits);
            assertEquals(Math.pow(2, -bits), r.formulaRate(), 0.0);
            assertEquals((double) slots * bits, r.bits(), 0.0);
            assertEquals(RibbonFilter.slots(r.n(), FilterFamilyExperiment.RIBBON_OVERHEAD), slots);
            assertTrue(Integer.parseInt(m.group(3)) >= 1);
        }
        assertEquals(7, FilterFamilyMeasure.ribbonBits(1e-2));
        assertEquals(10, FilterFamilyMeasure.ribbonBits(1e-3));
        assertEquals(20, FilterFamilyMeasure.ribbonBits(1e-6));
        assertEquals(20, FilterFamilyMeasure.ribbonBits(1.0 / Bip158.BASIC_M));
        assertEquals(3, FilterFamilyMeasure.ribbonBits(0.125));
    }

    @Test
    void nothingButTheBoundReachesTheBound() {
        for (FilterFamilyExperiment.Row r : rows) {
            if (!r.family().equals("bound") && !Double.isNaN(r.target())) {
                assertTrue(r.bitsPerElement() > r.boundBitsPerElement(), r.implementation() + " " + r.target());
            }
        }
    }
}
