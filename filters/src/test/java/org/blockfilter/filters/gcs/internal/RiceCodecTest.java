package org.blockfilter.filters.gcs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.blockfilter.filters.gcs.FilterFormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RiceCodecTest {

    /** Deltas with quotients 0..3 mostly and an occasional run longer than the 64-bit buffer. */
    private static long[] deltas(int p, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] deltas = new long[n];
        for (int i = 0; i < n; i++) {
            long q = random.nextInt(50) == 0 ? 60 + random.nextInt(80) : random.nextInt(4);
            deltas[i] = (q << p) | (random.nextLong() >>> (64 - p));
        }
        return deltas;
    }

    /** Writes the deltas from {@code startBit}; returns the buffer holding exactly the written bytes + PAD. */
    private static byte[] encode(long[] deltas, int p, long startBit, long[] endBit) {
        long bits = startBit;
        for (long d : deltas) {
            bits += RiceCodec.bits(d, p);
        }
        byte[] buf = new byte[(int) ((bits + 7) >>> 3) + RiceCodec.PAD];
        RiceCodec.Writer writer = new RiceCodec.Writer(buf, startBit, p);
        for (long d : deltas) {
            writer.write(d);
        }
        endBit[0] = 8 * ((writer.position() + 7) >>> 3);
        return buf;
    }

    @ParameterizedTest(name = "P = {0}")
    @ValueSource(ints = {1, 5, 19, 20, 31, 32})
    void validatesAndReadsCodesStartingAtEveryBitOffset(int p) {
        // Each start offset 0..63 shifts every later code too, so codes and refills straddle each word
        // boundary at every bit position, on both the checked and the unchecked reading path.
        for (int start = 0; start < 64; start++) {
            long[] deltas = deltas(p, 300, start);
            long[] endBit = new long[1];
            byte[] buf = encode(deltas, p, start, endBit);
            long sum = 0;
            for (long d : deltas) {
                sum += d;
            }
            long end = new RiceCodec.Reader(buf, start, p).validate(deltas.length, endBit[0], sum + 1);
            RiceCodec.Reader reader = new RiceCodec.Reader(buf, start, p);
            for (int i = 0; i < deltas.length; i++) {
                assertEquals(deltas[i], reader.next(), "start " + start + ", element " + i);
            }
            assertEquals(reader.position(), end);
        }
    }

    @ParameterizedTest(name = "P = {0}")
    @ValueSource(ints = {1, 19, 32})
    void rejectsAValueReachingTheRangeAtEveryBitOffset(int p) {
        for (int s = 0; s < 64; s++) {
            int start = s;
            long[] deltas = deltas(p, 50, start);
            deltas[deltas.length - 1] |= 1; // so that only the last value reaches the range
            long[] endBit = new long[1];
            byte[] buf = encode(deltas, p, start, endBit);
            long sum = 0;
            for (long d : deltas) {
                sum += d;
            }
            long range = sum; // the last value equals the range: one too many
            FilterFormatException e = assertThrows(
                    FilterFormatException.class,
                    () -> new RiceCodec.Reader(buf, start, p).validate(deltas.length, endBit[0], range));
            // Named as an out-of-range value or, when the quotient alone is already too large, a too-long run.
            assertTrue(e.getMessage().contains("element " + (deltas.length - 1)), e.getMessage());
        }
    }
}
