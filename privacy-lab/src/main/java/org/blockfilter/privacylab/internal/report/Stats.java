package org.blockfilter.privacylab.internal.report;

import java.util.List;

/** Means, standard deviations and 95% confidence intervals (Wilson, bootstrap). Stateless. */
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

    /** z for a two-sided 95% interval. */
    public static final double Z95 = 1.959963984540054;

    /** The Wilson score 95% interval for {@code k} successes in {@code n} trials: {lo, hi}. */
    public static double[] wilson(long k, long n) {
        return wilson(k, n, Z95);
    }

    /** The Wilson score interval for {@code k} successes in {@code n} trials at normal quantile {@code z}: {lo, hi}. */
    public static double[] wilson(long k, long n, double z) {
        if (n == 0) {
            return new double[] {0, 1};
        }
        double p = (double) k / n;
        double z2 = z * z;
        double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
        double half = z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

    /**
     * The percentile bootstrap 95% interval of the mean of {@code xs}: {lo, hi}, from {@code resamples} resamples
     * drawn with a generator seeded by {@code seed} (so the interval is reproducible).
     */
    public static double[] bootstrapMean(List<Double> xs, long seed, int resamples) {
        int n = xs.size();
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double[] v = xs.stream().mapToDouble(Double::doubleValue).toArray();
        double[] means = new double[resamples];
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        for (int r = 0; r < resamples; r++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += v[rnd.nextInt(n)];
            }
            means[r] = s / n;
        }
        java.util.Arrays.sort(means);
        return new double[] {
            means[(int) Math.floor(0.025 * (resamples - 1))], means[(int) Math.ceil(0.975 * (resamples - 1))]
        };
    }

    /** The bootstrap interval with 2,000 resamples. */
    public static double[] ci(List<Double> xs, long seed) {
        return bootstrapMean(xs, seed, 2000);
    }

    /** {@code x} rounded to {@code digits} significant digits (for tables a reader reads). */
    public static double sig(double x, int digits) {
        if (x == 0 || Double.isNaN(x) || Double.isInfinite(x)) {
            return x;
        }
        return new java.math.BigDecimal(x)
                .round(new java.math.MathContext(digits))
                .doubleValue();
    }
}
