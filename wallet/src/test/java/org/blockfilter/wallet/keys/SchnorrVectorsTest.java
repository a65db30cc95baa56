package org.blockfilter.wallet.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.blockfilter.filters.Vectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The official BIP 340 vectors (testvectors/bip340/test-vectors.csv) against {@link Schnorr}. */
class SchnorrVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    record Row(
            int index,
            String secretKey,
            String publicKey,
            String auxRand,
            String message,
            String signature,
            boolean valid,
            String comment) {
        @Override
        public String toString() {
            return "#" + index + (comment.isEmpty() ? "" : " " + comment);
        }
    }

    static Stream<Row> rows() {
        List<String> lines = new String(Vectors.bytes("bip340/test-vectors.csv"), StandardCharsets.UTF_8)
                .lines()
                .skip(1)
                .filter(l -> !l.isBlank())
                .toList();
        return lines.stream()
                .map(l -> l.split(",", -1))
                .map(f -> new Row(Integer.parseInt(f[0]), f[1], f[2], f[3], f[4], f[5], f[6].equals("TRUE"), f[7]));
    }

    static Stream<Row> thirtyTwoByteMessages() {
        return rows().filter(r -> r.message().length() == 64);
    }

    static Stream<Row> otherMessageLengths() {
        return rows().filter(r -> r.message().length() != 64);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("thirtyTwoByteMessages")
    void signsAsTheVectorSays(Row r) {
        if (r.secretKey().isEmpty()) {
            return; // verification-only row
        }
        byte[] sig = Schnorr.sign(HEX.parseHex(r.message()), HEX.parseHex(r.secretKey()), HEX.parseHex(r.auxRand()));
        assertEquals(r.signature(), HEX.formatHex(sig).toUpperCase());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("thirtyTwoByteMessages")
    void verifiesAsTheVectorSays(Row r) {
        assertEquals(
                r.valid(),
                Schnorr.verify(HEX.parseHex(r.signature()), HEX.parseHex(r.message()), HEX.parseHex(r.publicKey())));
    }

    /** Rows 15..18 (added 2022-12) sign messages of 0, 1, 17 and 100 bytes; BIP 341 signs 32 bytes only. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("otherMessageLengths")
    void refusesMessagesThatAreNot32Bytes(Row r) {
        assertThrows(
                IllegalArgumentException.class,
                () -> Schnorr.sign(HEX.parseHex(r.message()), HEX.parseHex(r.secretKey()), HEX.parseHex(r.auxRand())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("thirtyTwoByteMessages")
    void theSignatureOfAVectorKeyVerifiesForItsPublicKey(Row r) {
        if (r.secretKey().isEmpty()) {
            return;
        }
        byte[] msg = HEX.parseHex(r.message());
        byte[] sig = Schnorr.sign(msg, HEX.parseHex(r.secretKey()), new byte[32]);
        assertEquals(true, Schnorr.verify(sig, msg, HEX.parseHex(r.publicKey())));
        msg[0] ^= 1;
        assertEquals(false, Schnorr.verify(sig, msg, HEX.parseHex(r.publicKey())));
        assertArrayEquals(sig, Schnorr.sign(HEX.parseHex(r.message()), HEX.parseHex(r.secretKey()), new byte[32]));
    }
}
