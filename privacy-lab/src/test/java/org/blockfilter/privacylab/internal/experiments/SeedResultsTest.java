package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.blockfilter.privacylab.internal.report.Csv;
import org.junit.jupiter.api.Test;

/** Bloom's 1970 table and the counting filter's overflow probability, on values worked out by hand. */
class SeedResultsTest {
    private static final double EPS = 1e-12;

    /** 50,000 / ln 2 = 72,134.75 bits at P = 1/2; five halvings: 360,673.8. */
    @Test
    void hashAreaIsTheOptimalBloomFilterForTheStoredWords() {
        assertEquals(72_134.75, SeedResults.bloomBits(50_000, 0.5), 0.01);
        assertEquals(5 * 72_134.75, SeedResults.bloomBits(50_000, 1.0 / 32), 0.05);
    }

    /** 450,000 simple words of 500,000, each a disk access only when a false positive: 0.9 x (1 - P). */
    @Test
    void diskAccessesAvoidedMatchTheSeedToItsPrintedDigit() {
        assertEquals(0.45, SeedResults.avoided(500_000, 50_000, 0.5), EPS);
        assertEquals(0.871875, SeedResults.avoided(500_000, 50_000, 1.0 / 32), EPS);
        Csv t = SeedResults.bloomTable(new Lab(
                3,
                true,
                Path.of("unused"),
                1,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        List<String> first = t.rows().get(0);
        List<String> last = t.rows().get(4);
        assertEquals(List.of("1/2", "1", "72800", "72135", "45.0%", "45.0%"), first.subList(0, 6));
        assertEquals(List.of("1/32", "5", "364000", "360674", "87.2%", "87.2%"), last.subList(0, 6));
        assertEquals("", t.rows().get(2).get(2), "the seed gives only the two ends");
    }

    /** A filter at the optimum for P = 1/2 (one function, half the bits set) rejects about half the others. */
    @Test
    void measuredFilterHasTheAllowedError() {
        double r = SeedResults.measuredRate(Math.round(SeedResults.bloomBits(50_000, 0.5)), 1, 50_000, 100_000, 9);
        assertEquals(0.5, r, 0.01);
        double r3 = SeedResults.measuredRate(Math.round(SeedResults.bloomBits(50_000, 0.125)), 3, 50_000, 100_000, 9);
        assertEquals(0.125, r3, 0.01);
    }

    /** (e ln 2 / 16)^16 = 1.37e-15, the seed's figure; the Poisson tail checked where it is 1 - e^{-m}(1 + m). */
    @Test
    void overflowBoundIsFansAndTheExactTailIsSmaller() {
        assertEquals(1.37e-15, SeedResults.fanBound(16), 0.005e-15);
        double m = Math.log(2);
        assertEquals(0.5, SeedResults.poissonTail(m, 1), EPS);
        assertEquals(1 - Math.exp(-m) * (1 + m), SeedResults.poissonTail(m, 2), EPS);
        assertTrue(SeedResults.poissonTail(m, 16) < SeedResults.fanBound(16));
        List<String> four = SeedResults.overflowTable().rows().get(1);
        assertEquals("4", four.get(0));
        assertEquals("1.37e-15", four.get(2));
        assertEquals("1.37e-15", four.get(3), "the bound, computed");
    }
}
