package org.blockfilter.filters.gcs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random and mutated encodings: the decoder either accepts (and then the input is canonical: it
 * re-encodes to the same bytes) or throws {@link FilterFormatException}; never another exception, and
 * never more than a bounded allocation (a copy of the input plus small change), measured per call with
 * the JVM's per-thread allocation counter.
 */
class DecoderFuzzTest {

    private static final int P = 19;
    private static final long M = 784_931;

    /** Input copy + padding + exception and message objects; far below anything N could claim. */
    private static final long ALLOCATION_SLACK = 64 * 1024;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static boolean decodeOrReject(byte[] key, byte[] input) {
        tryDecode(key, input); // first call may load classes (formatter, exception): not the decoder's memory
        long before = THREADS.getCurrentThreadAllocatedBytes();
        GolombCodedSet set = null;
        try {
            set = GolombCodedSet.decode(P, M, key, input);
        } catch (FilterFormatException expected) {
            // fine: a typed rejection
        } catch (RuntimeException e) {
            fail(
                    "decoder threw " + e + " for "
                            + java.util.HexFormat.of().formatHex(input, 0, Math.min(64, input.length)),
                    e);
        }
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertTrue(
                allocated <= 2L * input.length + ALLOCATION_SLACK,
                () -> allocated + " bytes allocated decoding " + input.length + " bytes");
        if (set != null) {
            assertArrayEquals(input, set.encoded(), "an accepted encoding must be canonical");
        }
        return set != null;
    }

    // Hang guard only (the whole test takes about a second); no speed is asserted.
    @Test
    @Timeout(120)
    void randomBytesAreDecodedOrRejected() {
        Random random = new Random(42);
        byte[] key = new byte[16];
        for (int i = 0; i < 20_000; i++) {
            byte[] input = new byte[random.nextInt(i % 100 == 0 ? 5000 : 40)];
            random.nextBytes(input);
            if (input.length > 0 && random.nextBoolean()) {
                input[0] = (byte) random.nextInt(8); // plausible small N
            }
            decodeOrReject(key, input);
        }
    }

    @Test
    @Timeout(120)
    void mutatedValidEncodingsAreDecodedOrRejected() {
        Random random = new Random(7);
        int accepted = 0;
        for (int round = 0; round < 200; round++) {
            byte[] key = new byte[16];
            random.nextBytes(key);
            int n = random.nextInt(round % 50 == 0 ? 3000 : 60);
            byte[] valid = GolombCodedSet.build(P, M, key, GolombCodedSetTest.randomItems(random, n))
                    .encoded();
            for (int mutation = 0; mutation < 100; mutation++) {
                byte[] input = mutate(random, valid);
                if (decodeOrReject(key, input)) {
                    accepted++;
                }
            }
        }
        // Some mutations (e.g. remainder bit flips) keep the encoding valid: both outcomes are exercised.
        assertTrue(accepted > 0);
    }

    private static void tryDecode(byte[] key, byte[] input) {
        try {
            GolombCodedSet.decode(P, M, key, input);
        } catch (RuntimeException e) {
            // judged by the measured call
        }
    }

    private static byte[] mutate(Random random, byte[] valid) {
        byte[] out = valid.clone();
        switch (random.nextInt(7)) {
            case 0: { // flip one bit
                int bit = random.nextInt(out.length * 8);
                out[bit >>> 3] ^= (byte) (0x80 >>> (bit & 7));
                return out;
            }
            case 1: // truncate
                return Arrays.copyOf(out, random.nextInt(out.length + 1));
            case 2: { // append garbage
                byte[] longer = Arrays.copyOf(out, out.length + 1 + random.nextInt(16));
                for (int i = out.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                return longer;
            }
            case 3: { // rewrite N with a random (possibly huge or non-canonical) CompactSize
                byte[] prefixes = {(byte) 0xfd, (byte) 0xfe, (byte) 0xff, (byte) random.nextInt(0xfd)};
                byte marker = prefixes[random.nextInt(prefixes.length)];
                int width = marker == (byte) 0xfd ? 2 : marker == (byte) 0xfe ? 4 : marker == (byte) 0xff ? 8 : 0;
                byte[] rest = Arrays.copyOfRange(out, 1, out.length);
                byte[] result = new byte[1 + width + rest.length];
                result[0] = marker;
                for (int i = 1; i <= width; i++) {
                    result[i] = (byte) random.nextInt(256);
                }
                System.arraycopy(rest, 0, result, 1 + width, rest.length);
                return result;
            }
            case 4: { // a long run of ones (hostile unary quotient)
                int start = random.nextInt(out.length);
                int len = Math.min(out.length - start, 1 + random.nextInt(64));
                Arrays.fill(out, start, start + len, (byte) 0xff);
                return out;
            }
            case 5: { // zero a run
                int start = random.nextInt(out.length);
                Arrays.fill(out, start, Math.min(out.length, start + 1 + random.nextInt(8)), (byte) 0);
                return out;
            }
            default: { // several random byte writes
                for (int i = 0; i < 1 + random.nextInt(4); i++) {
                    out[random.nextInt(out.length)] = (byte) random.nextInt(256);
                }
                return out;
            }
        }
    }
}
