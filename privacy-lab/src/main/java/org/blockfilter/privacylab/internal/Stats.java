package org.blockfilter.privacylab.internal;

import java.util.List;

/** Means and standard deviations. Stateless. */
public final class Stats {
    private Stats() {}

    public static double mean(List<Double> xs) {
        double s = 0;
        for (double x : xs) {
            s += x;
        }
        return xs.isEmpty() ? Double.NaN : s / xs.size();
    }

    /** Sample standard deviation (0 for fewer than two values). */
    public static double sd(List<Double> xs) {
        if (xs.size() < 2) {
            return 0;
        }
        double m = mean(xs);
        double s = 0;
        for (double x : xs) {
            s += (x - m) * (x - m);
        }
        return Math.sqrt(s / (xs.size() - 1));
    }
}
