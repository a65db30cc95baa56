package org.blockfilter.filters.bench;

import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;

/**
 * Prints the bits per element basic filters actually use, against the lower bound log2(M) and a Bloom
 * filter with the same false-positive rate 1/M. Sizes, not speeds: deterministic.
 */
public final class FilterSizeBenchmark {

    private FilterSizeBenchmark() {}

    public static void main(String[] args) {
        double m = Bip158.BASIC_M;
        double lowerBound = Math.log(m) / Math.log(2);
        double bloom = Math.log(m) / (Math.log(2) * Math.log(2));
        System.out.printf("log2(M) lower bound: %.2f bits/element%n", lowerBound);
        System.out.printf(
                "Bloom filter at fp = 1/M (optimal k = %.1f): %.2f bits/element%n", Math.log(m) / Math.log(2), bloom);
        for (int n : new int[] {10, 100, 1000, 7400, 10_000, 100_000}) {
            GolombCodedSet set =
                    GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BenchData.key(n), BenchData.scripts(n, n));
            double bits = 8.0 * set.encodedLength() / set.size();
            System.out.printf(
                    "N = %6d: %7d bytes, %.2f bits/element (%.1f%% over log2 M, %.1f%% of Bloom)%n",
                    set.size(), set.encodedLength(), bits, 100 * (bits / lowerBound - 1), 100 * bits / bloom);
        }
    }
}
