package org.blockfilter.wallet.source.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireFormatException;
import org.junit.jupiter.api.Test;

class BinaryAnswersTest {
    private static final Sha256Hash STOP = Sha256Hash.of(new byte[] {1});

    @Test
    void randomBytesNeverHangCrashOrAllocateBeyondTheInput() {
        Random random = new Random(7);
        List<Function<byte[], Object>> decoders = List.of(
                BinaryAnswers::filterHeaders,
                b -> BinaryAnswers.checkpoints(b, 125_000),
                b -> BinaryAnswers.filters(b, STOP, 4_000_000));
        int decoded = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] body = new byte[random.nextInt(200)];
            random.nextBytes(body);
            if (body.length > 0 && i % 2 == 0) {
                body[0] = (byte) (0xfc + random.nextInt(4)); // exercise the wide CompactSize forms
            }
            for (Function<byte[], Object> d : decoders) {
                try {
                    d.apply(body);
                    decoded++;
                } catch (WireFormatException expected) {
                    assertTrue(expected.offset() >= 0 && expected.offset() <= body.length);
                }
            }
        }
        assertTrue(decoded < 60_000, "random bytes should mostly be rejected");
    }

    @Test
    void aSingleZeroByteIsNoCheckpoints() {
        assertEquals(List.of(), BinaryAnswers.checkpoints(new byte[] {0}, 10));
    }
}
