package org.blockfilter.filters.p2p.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.blockfilter.filters.Vectors;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BIP 324's official vectors (bitcoin/bips {@code bip-0324/}, byte-identical copies under
 * {@code testvectors/bip324/}, see PROVENANCE.md), checked the way the BIP's {@code
 * run_test_vectors.py} checks them: every intermediate value and the ciphertext of each packet.
 */
class Bip324VectorsTest {
    private static final HexFormat HEX = HexFormat.of();
    /** The vectors are for mainnet: the salt ends with its magic. */
    private static final byte[] MAINNET_MAGIC = HEX.parseHex("f9beb4d9");

    static List<Map<String, String>> rows(String file) {
        String text = new String(Vectors.bytes("bip324/" + file), StandardCharsets.UTF_8);
        String[] lines = text.split("\n");
        String[] header = lines[0].split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            String[] cells = lines[i].split(",", -1);
            assertEquals(header.length, cells.length, file + " line " + (i + 1));
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) {
                row.put(header[c], cells[c]);
            }
            rows.add(row);
        }
        return rows;
    }

    static Stream<Map<String, String>> packets() {
        return rows("packet_encoding_test_vectors.csv").stream();
    }

    static Stream<Map<String, String>> xswiftec() {
        return rows("xswiftec_test_vectors.csv").stream();
    }

    static Stream<Map<String, String>> decodes() {
        return rows("xelligatorswift_test_vectors.csv").stream();
    }

    @ParameterizedTest
    @MethodSource("packets")
    void packetEncodingVectorMatchesEveryIntermediateAndTheCiphertext(Map<String, String> row) {
        boolean initiating = row.get("in_initiating").equals("1");
        byte[] priv = HEX.parseHex(row.get("in_priv_ours"));
        byte[] ours = HEX.parseHex(row.get("in_ellswift_ours"));
        byte[] theirs = HEX.parseHex(row.get("in_ellswift_theirs"));

        X9ECParameters curve = CustomNamedCurves.getByName("secp256k1");
        BigInteger xOurs = curve.getG()
                .multiply(new BigInteger(1, priv))
                .normalize()
                .getAffineXCoord()
                .toBigInteger();
        assertEquals(row.get("mid_x_ours"), HEX.formatHex(EllSwift.to32(xOurs)));
        assertEquals(row.get("mid_x_ours"), HEX.formatHex(EllSwift.decode(ours)));
        assertEquals(row.get("mid_x_shared"), HEX.formatHex(EllSwift.ecdhXOnly(theirs, priv)));
        byte[] secret = EllSwift.sharedSecret(priv, theirs, ours, initiating);
        assertEquals(row.get("mid_shared_secret"), HEX.formatHex(secret));

        V2Cipher cipher = new V2Cipher(secret, MAINNET_MAGIC, initiating);
        assertEquals(row.get("mid_initiator_l"), HEX.formatHex(cipher.derivedKey(0)));
        assertEquals(row.get("mid_initiator_p"), HEX.formatHex(cipher.derivedKey(1)));
        assertEquals(row.get("mid_responder_l"), HEX.formatHex(cipher.derivedKey(2)));
        assertEquals(row.get("mid_responder_p"), HEX.formatHex(cipher.derivedKey(3)));
        assertEquals(row.get("mid_send_garbage_terminator"), HEX.formatHex(cipher.sendTerminator()));
        assertEquals(row.get("mid_recv_garbage_terminator"), HEX.formatHex(cipher.recvTerminator()));
        assertEquals(row.get("mid_session_id"), HEX.formatHex(cipher.sessionId()));

        int idx = Integer.parseInt(row.get("in_idx"));
        for (int i = 0; i < idx; i++) {
            cipher.encrypt(new byte[0], new byte[0], false);
        }
        byte[] unit = HEX.parseHex(row.get("in_content"));
        int multiply = Integer.parseInt(row.get("in_multiply"));
        byte[] contents = new byte[unit.length * multiply];
        for (int i = 0; i < multiply; i++) {
            System.arraycopy(unit, 0, contents, i * unit.length, unit.length);
        }
        String ciphertext = HEX.formatHex(cipher.encrypt(
                contents, HEX.parseHex(row.get("in_aad")), row.get("in_ignore").equals("1")));
        if (!row.get("out_ciphertext").isEmpty()) {
            assertEquals(row.get("out_ciphertext"), ciphertext);
        }
        if (!row.get("out_ciphertext_endswith").isEmpty()) {
            assertTrue(ciphertext.endsWith(row.get("out_ciphertext_endswith")), "ciphertext ends with the vector's");
        }
    }

    @ParameterizedTest
    @MethodSource("xswiftec")
    void xswiftecInverseGivesEachCasesTAndMapsBack(Map<String, String> row) {
        BigInteger u = new BigInteger(1, HEX.parseHex(row.get("u")));
        BigInteger x = new BigInteger(1, HEX.parseHex(row.get("x")));
        for (int c = 0; c < 8; c++) {
            BigInteger t = EllSwift.xswiftecInv(x, u, c);
            String expected = row.get("case" + c + "_t");
            if (expected.isEmpty()) {
                assertNull(t, "case " + c + " has no t");
            } else {
                assertEquals(expected, HEX.formatHex(EllSwift.to32(t)), "case " + c);
                assertEquals(x, EllSwift.xswiftec(u, t), "XSwiftEC(u, t) = x for case " + c);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("decodes")
    void ellswiftDecodesToTheVectorsX(Map<String, String> row) {
        assertEquals(row.get("x"), HEX.formatHex(EllSwift.decode(HEX.parseHex(row.get("ellswift")))));
    }
}
