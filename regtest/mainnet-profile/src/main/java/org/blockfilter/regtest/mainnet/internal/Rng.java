package org.blockfilter.regtest.mainnet.internal;

/**
 * A small seeded generator (SplitMix64): fast, reproducible across JVMs and versions, unlike
 * {@code java.util.Random}'s unspecified helpers. Not thread-safe.
 */
public final class Rng {
    private long state;

    public Rng(long seed) {
        this.state = seed;
    }

    public long nextLong() {
        state += 0x9E3779B97F4A7C15L;
        return mix(state);
    }

    /** The SplitMix64 finalizer: a stateless hash of {@code z}. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Uniform in [0, bound). */
    public int nextInt(int bound) {
        return (int) ((nextLong() >>> 33) % bound);
    }

    /** Uniform in [lo, hi]. */
    public int between(int lo, int hi) {
        return lo + nextInt(hi - lo + 1);
    }

    /** Normal(mean, sd) by Box-Muller. */
    public double gaussian(double mean, double sd) {
        double u = Math.max(nextDouble(), 1e-12);
        double v = nextDouble();
        return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
