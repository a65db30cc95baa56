package org.blockfilter.privacylab.internal.universe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomMath;
import org.blockfilter.filters.bloom.UpdateFlag;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.junit.jupiter.api.Test;

/** The scan's counts against a direct count, and the analytic model against exact enumeration on a tiny universe. */
class UniverseScanTest {

    private static BloomFilter filled(int bytes, int funcs, int tweak, int elements, long seed) {
        BloomFilter f =
                Bip37Filter.of(bytes, funcs, tweak, UpdateFlag.UPDATE_NONE).toBitcoinj();
        AddressUniverse members = new AddressUniverse(seed);
        byte[] e = new byte[AddressUniverse.HASH_BYTES];
        for (int i = 0; i < elements; i++) {
            members.hash160(i, e);
            f.insert(e.clone());
        }
        return f;
    }

    @Test
    void universeIsDeterministicPerSeedAndDiffersAcrossSeeds() {
        byte[] a = new byte[20];
        byte[] b = new byte[20];
        new AddressUniverse(5).hash160(123, a);
        new AddressUniverse(5).hash160(123, b);
        assertArrayEquals(a, b);
        new AddressUniverse(6).hash160(123, b);
        assertNotEquals(
                java.util.HexFormat.of().formatHex(a), java.util.HexFormat.of().formatHex(b));
    }

    @Test
    void scanCountsEqualADirectCountWithBitcoinjForAnyThreadCount() {
        BloomFilter f1 = filled(20, 3, 1, 40, 10);
        BloomFilter f2 = filled(20, 3, 2, 40, 10);
        AddressUniverse u = new AddressUniverse(3);
        int size = 30_000;
        long only1 = 0;
        long both = 0;
        byte[] h = new byte[20];
        for (int i = 0; i < size; i++) {
            u.hash160(i, h);
            boolean a = f1.contains(h);
            boolean b = f2.contains(h);
            only1 += a ? 1 : 0;
            both += a && b ? 1 : 0;
        }
        List<FastBloom> fs = List.of(FastBloom.of(f1), FastBloom.of(f2));
        for (int threads : new int[] {1, 3}) {
            UniverseScan.Histogram hist = UniverseScan.scan(u, size, fs, false, threads, null);
            assertEquals(only1, hist.hashMatchesAll(0));
            assertEquals(both, hist.hashMatchesAll(0, 1));
        }
    }

    /**
     * Tiny universe, exact enumeration: for a fixed filter, the expected number of false positives among U random
     * candidates is U x density^k, exactly (each candidate's k bit positions are independent and uniform).
     * Averaged over many small filters, the formula (1 - e^{-kn/m})^k approaches it.
     */
    @Test
    void analyticModelAgreesWithExactEnumerationOnATinyUniverse() {
        int bytes = 4;
        int funcs = 2;
        int n = 8;
        double sumExact = 0;
        double sumMeasured = 0;
        int filters = 400;
        int universe = 2_000;
        for (int t = 0; t < filters; t++) {
            BloomFilter f = filled(bytes, funcs, t, n, 100 + t);
            Bip37Filter copy = Bip37Filter.fromBitcoinj(f);
            // exact: enumerate every pair of bit positions; a candidate is a false positive iff both bits are set
            byte[] bits = copy.bits();
            int m = 8 * bytes;
            long hits = 0;
            for (int p = 0; p < m; p++) {
                for (int q = 0; q < m; q++) {
                    if (isSet(bits, p) && isSet(bits, q)) {
                        hits++;
                    }
                }
            }
            double exactRate = (double) hits / ((long) m * m);
            assertEquals(copy.bitDensity() * copy.bitDensity(), exactRate, 1e-12);
            sumExact += exactRate * universe;
            UniverseScan.Histogram hist = UniverseScan.scan(
                    new AddressUniverse(7_000 + t), universe, List.of(FastBloom.of(f)), false, 1, null);
            sumMeasured += hist.hashMatchesAll(0);
        }
        double meanExact = sumExact / filters;
        double meanMeasured = sumMeasured / filters;
        double model = BloomMath.falsePositiveRate(8L * bytes, funcs, n) * universe;
        // 400 filters x 2,000 candidates: the measured mean is within a few percent of the exact expectation
        assertEquals(meanExact, meanMeasured, 0.05 * meanExact);
        // the independence approximation of the formula is close for m = 32, k = 2, n = 8
        assertEquals(meanExact, model, 0.1 * meanExact);
    }

    private static boolean isSet(byte[] bits, int i) {
        return (bits[i >>> 3] & (1 << (i & 7))) != 0;
    }
}
