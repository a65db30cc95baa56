package org.blockfilter.privacylab.internal.filters;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.blockfilter.privacylab.internal.report.Stats;

/** Shared checks for the hand-written filters' tests: seeded keys and a measured rate against its formula. */
public final class FilterRates {
    /** A two-sided 99.9% normal quantile: a correct filter fails one check in a thousand runs of a seed. */
    public static final double Z999 = 3.2905;

    private FilterRates() {}

    /** {@code n} random 64-bit keys from {@code seed}. */
    static long[] keys(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = rnd.nextLong();
        }
        return keys;
    }

    /**
     * Asserts that {@code formula} lies in the 99.9% Wilson interval of the rate at which {@code filter} accepts
     * {@code queries} random keys drawn from {@code seed} (non-members with overwhelming probability).
     */
    static void assertRateInside(LongPredicate filter, long queries, long seed, double formula, String what) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long fp = 0;
        for (long i = 0; i < queries; i++) {
            if (filter.test(rnd.nextLong())) {
                fp++;
            }
        }
        double[] ci = Stats.wilson(fp, queries, Z999);
        assertTrue(
                formula >= ci[0] && formula <= ci[1],
                what + " " + formula + " outside [" + ci[0] + ", " + ci[1] + "] (" + fp + "/" + queries + ")");
    }
}
