package org.blockfilter.filters.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.blockfilter.filters.Vectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SipHashTest {

    private static final HexFormat HEX = HexFormat.of();

    static List<Arguments> vectors() {
        JsonNode json = Vectors.json("bip158/siphash24_vectors.json");
        List<Arguments> out = new ArrayList<>();
        int i = 0;
        for (JsonNode v : json.get("vectors")) {
            out.add(Arguments.of(
                    i++, v.get("message_hex").asText(), v.get("expected_hex").asText()));
        }
        return out;
    }

    private static long k(String hex) {
        return Long.parseUnsignedLong(hex, 16);
    }

    @ParameterizedTest(name = "vector {0}")
    @MethodSource("vectors")
    void matchesReferenceVector(int index, String messageHex, String expectedHex) {
        JsonNode json = Vectors.json("bip158/siphash24_vectors.json");
        long k0 = k(json.get("k0").asText());
        long k1 = k(json.get("k1").asText());
        byte[] message = HEX.parseHex(messageHex);
        assertEquals(index, message.length);
        assertEquals(k(expectedHex), SipHash.hash24(k0, k1, message));
    }

    @Test
    void allSixtyFourVectorsArePresent() {
        assertEquals(64, vectors().size());
    }

    @Test
    void keyHalvesAreLittleEndianWordsOfTheKeyBytes() {
        JsonNode json = Vectors.json("bip158/siphash24_vectors.json");
        byte[] key = HEX.parseHex(json.get("key_hex").asText());
        assertEquals(k(json.get("k0").asText()), SipHash.keyHalf(key, 0));
        assertEquals(k(json.get("k1").asText()), SipHash.keyHalf(key, 8));
    }

    @Test
    void matchesUint256Vector() {
        JsonNode v = Vectors.json("bip158/siphash24_vectors.json").get("uint256_vector");
        byte[] message = HEX.parseHex(v.get("message_hex").asText());
        // The message is the uint256's internal byte order: its display hex reversed.
        byte[] display = HEX.parseHex(v.get("uint256_display_hex").asText());
        for (int i = 0; i < 32; i++) {
            assertEquals(display[31 - i], message[i]);
        }
        assertEquals(
                k(v.get("expected_hex").asText()),
                SipHash.hash24(k(v.get("k0").asText()), k(v.get("k1").asText()), message));
    }

    @Test
    void hashesASliceLikeTheSameBytesAlone() {
        byte[] data = new byte[40];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7 + 3);
        }
        for (int off = 0; off < 8; off++) {
            for (int len = 0; off + len <= data.length; len++) {
                byte[] alone = java.util.Arrays.copyOfRange(data, off, off + len);
                assertEquals(SipHash.hash24(1, 2, alone), SipHash.hash24(1, 2, data, off, len));
            }
        }
    }

    @Test
    void rejectsASliceOutsideTheArray() {
        assertThrows(IndexOutOfBoundsException.class, () -> SipHash.hash24(0, 0, new byte[4], 2, 3));
    }
}
