package org.blockfilter.filters.gcs.internal;

import java.util.Arrays;

/**
 * Sorts 64-bit hashes in unsigned order, fast when they are uniformly distributed (SipHash outputs):
 * one bucket per element by the top bits, then a tiny sort per bucket. Expected linear time; a bucket
 * that is unexpectedly full (chosen inputs) is sorted with {@link Arrays#sort}, so the worst case stays
 * O(n log n).
 *
 * <p>Values are given and returned with the sign bit flipped ({@code hash ^ Long.MIN_VALUE}), so that
 * signed order is the hashes' unsigned order.
 */
public final class HashSort {

    /** Below this, bucketing does not pay. */
    private static final int SMALL = 64;

    private HashSort() {}

    /** Sorts {@code flipped[0..n)} ascending (signed order of flipped values). */
    public static void sort(long[] flipped, int n) {
        if (n < SMALL) {
            Arrays.sort(flipped, 0, n);
            return;
        }
        int bits = 32 - Integer.numberOfLeadingZeros(n - 1); // 2^bits >= n buckets
        int shift = 64 - bits;
        int[] start = new int[(1 << bits) + 1];
        for (int i = 0; i < n; i++) {
            start[(int) ((flipped[i] ^ Long.MIN_VALUE) >>> shift) + 1]++;
        }
        for (int b = 1; b < start.length; b++) {
            start[b] += start[b - 1];
        }
        long[] out = new long[n];
        int[] fill = Arrays.copyOf(start, start.length - 1);
        for (int i = 0; i < n; i++) {
            long v = flipped[i];
            out[fill[(int) ((v ^ Long.MIN_VALUE) >>> shift)]++] = v;
        }
        for (int b = 0; b < start.length - 1; b++) {
            int from = start[b];
            int to = start[b + 1];
            if (to - from > 16) {
                Arrays.sort(out, from, to);
            } else {
                for (int i = from + 1; i < to; i++) {
                    long v = out[i];
                    int j = i - 1;
                    while (j >= from && out[j] > v) {
                        out[j + 1] = out[j];
                        j--;
                    }
                    out[j + 1] = v;
                }
            }
        }
        System.arraycopy(out, 0, flipped, 0, n);
    }
}
