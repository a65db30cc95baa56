package org.blockfilter.privacylab.internal.adversaries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MetricsTest {
    @Test
    void phOfOneIsTheShareOfTrueMatches() {
        assertEquals(10.0 / 110, Metrics.ph(10, 100, 1), 1e-15);
        assertEquals(1.0, Metrics.ph(10, 0, 1));
    }

    @Test
    void phOfJIsTheHypergeometricAllHitProbability() {
        // C(4,2)/C(6,2) = 6/15
        assertEquals(0.4, Metrics.ph(4, 2, 2), 1e-15);
        assertEquals(0.0, Metrics.ph(2, 5, 3));
    }

    @Test
    void log10PhAllIsMinusLog10OfTheBinomial() {
        // C(5,2) = 10
        assertEquals(-1.0, Metrics.log10PhAll(2, 3), 1e-12);
        assertEquals(0.0, Metrics.log10PhAll(7, 0), 1e-12);
    }

    @Test
    void expectedFalsePositivesIsRateTimesOthers() {
        assertEquals(16_500.0, Metrics.expectedFalsePositives(0.0005, 33_000_100, 100), 1e-6);
    }
}
