package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.UpdateFlag;
import org.blockfilter.privacylab.internal.adversaries.Bip37Adversary;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;
import org.junit.jupiter.api.Test;

/** Each BIP 37 adversary on a case small enough that its answer is worked out by hand. */
class Bip37AdversaryTest {
    private static byte[] address(int tag) {
        byte[] h = new byte[AddressUniverse.HASH_BYTES];
        h[0] = (byte) tag;
        h[19] = (byte) (tag * 7 + 1);
        return h;
    }

    /** A large filter with many functions: false positives among a handful of candidates are ~1e-40. */
    private static BloomFilter filterOf(int tweak, int... tags) {
        BloomFilter f = Bip37Filter.of(2_000, 20, tweak, UpdateFlag.UPDATE_NONE).toBitcoinj();
        for (int t : tags) {
            f.insert(address(t));
        }
        return f;
    }

    @Test
    void elementEstimateInvertsTheExpectedNumberOfSetBits() {
        // m = 8, k = 1, X = 4: n = -8 ln(1/2)
        assertEquals(8 * Math.log(2), Bip37Adversary.estimateElements(8, 1, 4), 1e-12);
        // m = 1000, k = 5, X = 0: nothing inserted
        assertEquals(0.0, Bip37Adversary.estimateElements(1000, 5, 0));
        // m = 100, k = 2, X = 50: n = -(100/2) ln(1/2)
        assertEquals(50 * Math.log(2), Bip37Adversary.estimateElements(100, 2, 50), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, Bip37Adversary.estimateElements(8, 3, 8));
    }

    @Test
    void elementEstimateRejectsImpossibleFilters() {
        assertThrows(IllegalArgumentException.class, () -> Bip37Adversary.estimateElements(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Bip37Adversary.estimateElements(8, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> Bip37Adversary.estimateElements(8, 1, 9));
        assertThrows(IllegalArgumentException.class, () -> Bip37Adversary.estimateElements(8, 1, -1));
    }

    @Test
    void elementEstimateOfARealFilterUsesItsOwnSetBits() {
        BloomFilter f = filterOf(7, 1, 2, 3, 4, 5);
        byte[] bits = Bip37Filter.fromBitcoinj(f).bits();
        long set = 0;
        for (byte b : bits) {
            set += Integer.bitCount(b & 0xff);
        }
        FastBloom fast = FastBloom.of(f);
        assertEquals(set, fast.setBits());
        assertEquals(16_000, fast.bitCount());
        assertEquals(-(16_000.0 / 20) * Math.log(1 - set / 16_000.0), Bip37Adversary.estimateElements(fast), 1e-9);
        // 5 elements x 20 functions in 16,000 bits: at most 100 bits, a collision or two at most
        assertTrue(set > 95 && set <= 100, "set bits " + set);
        assertEquals(5.0, Bip37Adversary.estimateElements(fast), 0.1);
    }

    @Test
    void intersectingFiltersKeepsExactlyTheAddressesInAllOfThem() {
        // wallet a, b, c (1, 2, 3); x and y (10, 11) are false positives of one filter each
        FastBloom f1 = FastBloom.of(filterOf(1, 1, 2, 3, 10));
        FastBloom f2 = FastBloom.of(filterOf(2, 1, 2, 3, 11));
        FastBloom f3 = FastBloom.of(filterOf(3, 1, 2, 3, 10, 11));
        List<byte[]> candidates = new ArrayList<>();
        for (int t : new int[] {1, 2, 3, 10, 11, 20, 21, 22}) {
            candidates.add(address(t));
        }
        assertEquals(4, Bip37Adversary.matchAll(List.of(f1), candidates).size());
        assertEquals(3, Bip37Adversary.matchAll(List.of(f1, f2), candidates).size());
        assertEquals(4, Bip37Adversary.matchAll(List.of(f1, f3), candidates).size());
        assertEquals(3, Bip37Adversary.matchAll(List.of(f1, f2, f3), candidates).size());
        // one filter: 3 of 4 matches are the wallet's. P_h(1) = 3/4, P_h(3) = 1/C(4,3) = 1/4
        long f = Bip37Adversary.matchAll(List.of(f1), candidates).size() - 3;
        assertEquals(0.75, Metrics.ph(3, f, 1), 1e-15);
        assertEquals(0.25, Metrics.ph(3, f, 3), 1e-15);
        // two filters with different false positives: nothing but the wallet survives
        long f12 = Bip37Adversary.matchAll(List.of(f1, f2), candidates).size() - 3;
        assertEquals(1.0, Metrics.ph(3, f12, 3));
    }

    @Test
    void sortingByTheEstimateRecoversTheOrderAWalletGrewIn() {
        int[] small = new int[10];
        int[] middle = new int[30];
        int[] large = new int[60];
        for (int i = 0; i < 60; i++) {
            if (i < 10) {
                small[i] = i;
            }
            if (i < 30) {
                middle[i] = i;
            }
            large[i] = i;
        }
        // sent as large, small, middle
        List<FastBloom> received = List.of(
                FastBloom.of(filterOf(9, large)), FastBloom.of(filterOf(8, small)), FastBloom.of(filterOf(7, middle)));
        int[] order = Bip37Adversary.orderByEstimate(received);
        assertArrayEquals(new int[] {1, 2, 0}, order);
        List<int[]> k = Bip37Adversary.suffixes(order);
        assertArrayEquals(new int[] {1, 2, 0}, k.get(0));
        assertArrayEquals(new int[] {2, 0}, k.get(1));
        assertArrayEquals(new int[] {0}, k.get(2));
    }

    @Test
    void expectedSurvivingFalsePositivesAreTheProductOfTheFiltersRates() {
        List<byte[]> wallet = List.of(address(1), address(2));
        Subject a = Subject.of(filterOf(1, 1, 2), 2, wallet);
        Subject b = Subject.of(filterOf(2, 1, 2, 10), 3, wallet);
        double ra = Math.pow(a.density(), 20);
        double rb = Math.pow(b.density(), 20);
        List<Subject> both = List.of(a, b);
        assertEquals(1e6 * ra * rb, Bip37Adversary.expectedFalsePositives(both, new int[] {0, 1}, 1_000_000), 1e-300);
        assertEquals(1e6 * rb, Bip37Adversary.expectedFalsePositives(both, new int[] {1}, 1_000_000), 1e-300);
    }

    @Test
    void addressCountFromTheElementTableIsARangeWhereTheCountIsFlat() {
        // counts of a wallet with lookahead: N = 1..3 all hold 4 elements, N = 4 holds 6
        int[] table = {0, 4, 4, 4, 6};
        assertArrayEquals(new int[] {1, 3}, Bip37AdversaryExperiment.addressesFromTable(table, 4.2));
        assertEquals(2, Bip37AdversaryExperiment.guess(new int[] {1, 3}));
        assertArrayEquals(new int[] {4, 4}, Bip37AdversaryExperiment.addressesFromTable(table, 5.9));
        assertEquals(2.5, Bip37Adversary.estimateAddresses(6, 2, 1), 1e-15);
    }

    @Test
    void poissonDrawsAreZeroWithoutRateAndAverageTheRate() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
        assertEquals(0, Bip37AdversaryExperiment.poisson(0, rnd));
        for (double lambda : new double[] {0.5, 7, 400}) {
            double sum = 0;
            int draws = 20_000;
            for (int i = 0; i < draws; i++) {
                sum += Bip37AdversaryExperiment.poisson(lambda, rnd);
            }
            // the standard error of the mean is sqrt(lambda / draws); allow 5 of them
            assertEquals(lambda, sum / draws, 5 * Math.sqrt(lambda / draws), "lambda " + lambda);
        }
    }
}
