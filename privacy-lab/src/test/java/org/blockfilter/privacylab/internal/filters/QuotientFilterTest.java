package org.blockfilter.privacylab.internal.filters;

import static org.blockfilter.privacylab.internal.filters.FilterRates.assertRateInside;
import static org.blockfilter.privacylab.internal.filters.FilterRates.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The hand-written quotient filter against Bender et al.'s definitions and rate formula. */
class QuotientFilterTest {

    @ParameterizedTest
    @CsvSource({"1, 3, 1", "7, 4, 5", "100, 7, 8", "5000, 13, 2", "60000, 16, 12", "124000, 17, 1"})
    void everyInsertedKeyIsFoundAtEveryLoadUpToNearlyFull(int n, int q, int r) {
        QuotientFilter f = QuotientFilter.create(q, r, 42);
        long[] keys = keys(n, n);
        for (int i = 0; i < n; i++) {
            f.add(keys[i]);
            if (i % 997 == 0) {
                for (int j = 0; j <= i; j++) {
                    assertTrue(f.mayContain(keys[j]), "key " + j + " lost after " + (i + 1) + " inserts");
                }
            }
        }
        for (long k : keys) {
            assertTrue(f.mayContain(k));
        }
        assertTrue(f.stored() <= n && f.stored() > 0);
    }

    @Test
    void theWordWalkFindsTheSameRunStartsAsTheSlotWalk() {
        // wraps around the end: quotients near 2^q - 1 push their runs into slot 0 onwards
        QuotientFilter f = QuotientFilter.create(10, 6, 7);
        for (long k : keys(1000, 3)) {
            f.add(k);
        }
        int checked = 0;
        int wrapped = 0;
        for (int fq = 0; fq < 1 << 10; fq++) {
            if (f.isOccupied(fq)) {
                int s = f.runStartBySlots(fq);
                assertEquals(s, f.runStartByWords(fq), "quotient " + fq);
                checked++;
                wrapped += s < fq ? 1 : 0;
            }
        }
        assertTrue(checked > 500, "occupied quotients " + checked);
        assertTrue(wrapped > 0, "no run wrapped past the last slot: the test lost its point");
    }

    @Test
    void aFullFilterRejectsANewFingerprintClearly() {
        QuotientFilter f = QuotientFilter.create(3, 20, 1);
        SplittableRandom rnd = new SplittableRandom(5);
        while (f.stored() < 8) {
            f.add(rnd.nextLong());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            for (int i = 0; i < 1000; i++) {
                f.add(rnd.nextLong());
            }
        });
        assertTrue(e.getMessage().contains("full"), e.getMessage());
    }

    @Test
    void emptyFilterMatchesNothing() {
        QuotientFilter f = QuotientFilter.create(12, 8, 1);
        for (long k : keys(10_000, 9)) {
            assertFalse(f.mayContain(k));
        }
    }

    @ParameterizedTest
    @CsvSource({"7400, 0.01", "20000, 0.001"})
    void measuredRateAgreesWithBenderFormula(int n, double eps) {
        QuotientFilter f = QuotientFilter.forRate(n, eps, 0.95, 11);
        for (long k : keys(n, 17)) {
            f.add(k);
        }
        double formula = QuotientFilter.expectedRate(f.load(), f.remainderBits());
        assertTrue(formula <= eps, "sized for " + eps + " but formula gives " + formula);
        assertRateInside(f::mayContain, 2_000_000, 23, formula, "formula");
        assertEquals(f.exactRate(), formula, 0.01 * formula, "exact s/2^(q+r) vs 1 - e^(-alpha/2^r)");
    }

    @ParameterizedTest
    @CsvSource({"6, 1", "13, 7", "13, 20", "20, 19"})
    void spaceIsTwoToTheQTimesRPlusThreeBits(int q, int r) {
        assertEquals((1L << q) * (r + 3), QuotientFilter.create(q, r, 0).bitCount());
    }

    @Test
    void sizingPicksTheSmallestTableUnderTheLoadAndTheSmallestRemainderForTheRate() {
        QuotientFilter f = QuotientFilter.forRate(7_400, 1e-2, 0.95, 0);
        assertEquals(13, f.quotientBits()); // 7,400 / 8,192 = 0.90
        assertEquals(7, f.remainderBits()); // 0.90 / 2^7 = 0.0070 <= 0.01 < 0.90 / 2^6
        assertEquals(21, QuotientFilter.forRate(1_000_000, 1e-2, 0.95, 0).quotientBits()); // 2^20 would be 0.954
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 31})
    void rejectsBadQuotientBits(int q) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QuotientFilter.create(q, 8, 0));
        assertTrue(e.getMessage().contains("q must be"), e.getMessage());
    }

    @Test
    void rejectsBadRemainderBitsRatesAndLoads() {
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.create(10, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.create(10, 55, 0));
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.forRate(0, 0.01, 0.9, 0));
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.forRate(100, 0, 0.9, 0));
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.forRate(100, 1.5, 0.9, 0));
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.forRate(100, 0.01, 1.0, 0));
        assertThrows(IllegalArgumentException.class, () -> QuotientFilter.forRate(100, 0.01, Double.NaN, 0));
    }
}
