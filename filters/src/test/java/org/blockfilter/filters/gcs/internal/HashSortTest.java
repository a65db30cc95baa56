package org.blockfilter.filters.gcs.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HashSortTest {

    private static void assertSortsLikeArraysSort(long[] values, int n) {
        long[] expected = Arrays.copyOf(values, n);
        Arrays.sort(expected);
        long[] actual = values.clone();
        HashSort.sort(actual, n);
        assertArrayEquals(expected, Arrays.copyOf(actual, n));
        assertArrayEquals(Arrays.copyOfRange(values, n, values.length), Arrays.copyOfRange(actual, n, values.length));
    }

    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {0, 1, 2, 63, 64, 65, 1000, 7400, 65_537})
    void sortsUniformValues(int n) {
        Random random = new Random(n);
        long[] values = new long[n + 3];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextLong();
        }
        assertSortsLikeArraysSort(values, n);
    }

    @Test
    void sortsSkewedValuesAndDuplicates() {
        Random random = new Random(1);
        long[] clustered = new long[5000];
        for (int i = 0; i < clustered.length; i++) {
            // All in one or two buckets, many equal: the fallback path.
            clustered[i] = (i % 3 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE) ^ random.nextInt(100);
        }
        assertSortsLikeArraysSort(clustered, clustered.length);
        long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE};
        long[] many = new long[700];
        for (int i = 0; i < many.length; i++) {
            many[i] = extremes[i % extremes.length];
        }
        assertSortsLikeArraysSort(many, many.length);
    }
}
