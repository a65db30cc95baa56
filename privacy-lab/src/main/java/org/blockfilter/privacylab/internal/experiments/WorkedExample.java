package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The textbook Bloom filter of experiment 6: m = 16 bits, k = 3 functions h1(x) = x mod 16, h2(x) = (3x + 7) mod 16,
 * h3(x) = (5x + 11) mod 16, holding 4, 9 and 13. Immutable and thread-safe.
 */
public final class WorkedExample {
    public static final int M = 16;
    public static final List<Integer> INSERTED = List.of(4, 9, 13);

    private final boolean[] bits = new boolean[M];

    public WorkedExample() {
        for (int x : INSERTED) {
            for (int b : positions(x)) {
                bits[b] = true;
            }
        }
    }

    /** The three bit positions of {@code x}. */
    public static int[] positions(int x) {
        return new int[] {Math.floorMod(x, M), Math.floorMod(3 * x + 7, M), Math.floorMod(5 * x + 11, M)};
    }

    public boolean contains(int x) {
        for (int b : positions(x)) {
            if (!bits[b]) {
                return false;
            }
        }
        return true;
    }

    /** The set bit positions. */
    public TreeSet<Integer> setBits() {
        TreeSet<Integer> s = new TreeSet<>();
        for (int i = 0; i < M; i++) {
            if (bits[i]) {
                s.add(i);
            }
        }
        return s;
    }

    /** The numbers in 0..15, not inserted, that the filter matches. */
    public List<Integer> falsePositives() {
        List<Integer> out = new ArrayList<>();
        for (int x = 0; x < M; x++) {
            if (!INSERTED.contains(x) && contains(x)) {
                out.add(x);
            }
        }
        return out;
    }

    /** False positives over the 13 non-members. */
    public double measuredRate() {
        return (double) falsePositives().size() / (M - INSERTED.size());
    }
}
