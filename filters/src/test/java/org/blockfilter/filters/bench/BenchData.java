package org.blockfilter.filters.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Deterministic script-like items for the benchmarks: mostly 22-34 bytes, as real output scripts are. */
final class BenchData {

    private static final int[] LENGTHS = {22, 23, 25, 34, 34, 22, 25, 22};

    private BenchData() {}

    static List<byte[]> scripts(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] s = new byte[LENGTHS[random.nextInt(LENGTHS.length)]];
            for (int j = 0; j < s.length; j++) {
                s[j] = (byte) random.nextInt(256);
            }
            out.add(s);
        }
        return out;
    }

    static byte[] key(long seed) {
        byte[] key = new byte[16];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) random.nextInt(256);
        }
        return key;
    }
}
