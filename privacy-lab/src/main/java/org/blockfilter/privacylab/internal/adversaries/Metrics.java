package org.blockfilter.privacylab.internal.adversaries;

/**
 * The adversary's success metric of Gervais et al. (ACSAC 2014) and the analytic model. Stateless.
 *
 * <p>The adversary sees N true addresses and F false positives among the matches and cannot tell them apart, so
 * picking j matches at random, all j are the client's with probability
 * P_h(j) = C(N, j) / C(N + F, j) = prod_{i < j} (N - i) / (N + F - i). P_h(1) = N / (N + F);
 * P_h(N) = 1 / C(N + F, N), reported as log10 because it underflows.
 */
public final class Metrics {
    private Metrics() {}

    /** P_h(j) for N true and F false matches (0 if j > N). */
    public static double ph(long n, double falseMatches, int j) {
        if (j > n) {
            return 0;
        }
        double p = 1;
        for (int i = 0; i < j; i++) {
            p *= (n - i) / (n + falseMatches - i);
        }
        return p;
    }

    /** log10 P_h(N) = -log10 C(N + F, N). */
    public static double log10PhAll(long n, double falseMatches) {
        double s = 0;
        for (long i = 0; i < n; i++) {
            s += Math.log10((n - i) / (n + falseMatches - i));
        }
        return s;
    }

    /** The analytic model: expected false positives = P_f x (|universe| - N). */
    public static double expectedFalsePositives(double fpRate, long universe, long n) {
        return fpRate * (universe - n);
    }
}
