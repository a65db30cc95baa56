package org.blockfilter.filters.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.bitcoinj.core.BloomFilter;
import org.junit.jupiter.api.Test;

/** The Bloom formulas against known values and against real bitcoinj filters. */
class BloomMathTest {

    @Test
    void falsePositiveRateMatchesTheFormulaAtKnownPoints() {
        // m/n = 10, k = 7: (1 - e^{-0.7})^7 = 0.0081937...
        assertEquals(0.0081937, BloomMath.falsePositiveRate(1000, 7, 100), 1e-7);
        // m/n = 8, k = 3: (1 - e^{-3/8})^3 = 0.030579...
        assertEquals(0.0305794, BloomMath.falsePositiveRate(800, 3, 100), 1e-7);
        assertEquals(0.0, BloomMath.falsePositiveRate(800, 3, 0));
    }

    @Test
    void optimalHashFunctionsIsBitsPerElementTimesLn2() {
        assertEquals(6.931, BloomMath.optimalHashFunctions(1000, 100), 1e-3);
    }

    @Test
    void bitsPerElementForOnePercentIsAboutNinePointSix() {
        assertEquals(9.585, BloomMath.bitsPerElement(0.01), 1e-3);
        assertEquals(14.378, BloomMath.bitsPerElement(0.001), 1e-3);
        assertEquals(19.170, BloomMath.bitsPerElement(0.0001), 1e-3);
    }

    @Test
    void expectedDensityIsOneHalfAtTheOptimum() {
        long m = 1_000_000;
        long n = 50_000;
        double kStar = BloomMath.optimalHashFunctions(m, n);
        assertEquals(0.5, 1 - Math.exp(-kStar * n / m), 1e-12);
        assertEquals(1 - Math.exp(-0.7), BloomMath.expectedBitDensity(1000, 7, 100), 1e-12);
    }

    @Test
    void bip37SizingFollowsCoreAndItsCaps() {
        assertEquals(3, BloomMath.bip37SizeBytes(3, 0.01));
        assertEquals(5, BloomMath.bip37HashFuncs(3, 3));
        assertEquals(35, BloomMath.bip37SizeBytes(10, 0.000001));
        assertEquals(19, BloomMath.bip37HashFuncs(35, 10));
        assertEquals(Bip37.MAX_BLOOM_FILTER_SIZE, BloomMath.bip37SizeBytes(1_000_000, 0.0001));
        assertEquals(Bip37.MAX_HASH_FUNCS, BloomMath.bip37HashFuncs(36_000, 1));
        assertEquals(0, BloomMath.bip37SizeBytes(1, 0.5));
    }

    @Test
    void rejectsRatesOutsideZeroOne() {
        assertThrows(IllegalArgumentException.class, () -> BloomMath.bitsPerElement(0));
        assertThrows(IllegalArgumentException.class, () -> BloomMath.bitsPerElement(1));
        assertThrows(IllegalArgumentException.class, () -> BloomMath.bip37SizeBytes(0, 0.01));
    }

    @Test
    void measuredDensityCountsSetBits() {
        assertEquals(0.5, BloomMath.measuredBitDensity(new byte[] {(byte) 0xf0, 0x0f}));
        assertEquals(0.0, BloomMath.measuredBitDensity(new byte[0]));
    }

    /** A self-check, not a tight bound: a full bitcoinj filter sized for its n sits near density 1/2. */
    @Test
    void realBitcoinjFilterFilledToCapacityHasDensityNearOneHalf() {
        int n = 2000;
        BloomFilter f = new BloomFilter(n, 0.001, 99);
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            byte[] e = new byte[20];
            rnd.nextBytes(e);
            f.insert(e);
        }
        Bip37Filter copy = Bip37Filter.fromBitcoinj(f);
        double expected = BloomMath.expectedBitDensity(8L * copy.sizeBytes(), copy.hashFuncs(), n);
        assertEquals(0.5, expected, 0.05);
        assertEquals(expected, copy.bitDensity(), 0.05);
    }

    /** bitcoinj's own theoretical rate is the same formula. */
    @Test
    void bitcoinjTheoreticalRateIsTheSameFormula() {
        BloomFilter f = new BloomFilter(500, 0.0005, 0);
        Bip37Filter copy = Bip37Filter.fromBitcoinj(f);
        assertEquals(
                f.getFalsePositiveRate(500),
                BloomMath.falsePositiveRate(8L * copy.sizeBytes(), copy.hashFuncs(), 500),
                1e-15);
        assertTrue(f.getFalsePositiveRate(500) < 0.0006);
    }
}
