package org.blockfilter.wallet.psbt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BIP 174's and BIP 371's own valid and invalid PSBTs (test resources {@code bip174/vectors.txt} and
 * {@code bip174/bip371-vectors.txt}, copied from the BIPs' text).
 */
class Bip174VectorsTest {
    /** What our message says for each invalid case of the BIP: the field or rule it breaks. */
    private static final Map<String, String> WHY = Map.ofEntries(
            Map.entry("Network transaction, not PSBT format", "not a PSBT: it must start with the magic bytes"),
            Map.entry("PSBT missing outputs", "ends before output map 0"),
            Map.entry("PSBT where one input has a filled scriptSig in the unsigned tx", "input 0 has a scriptSig"),
            Map.entry(
                    "PSBT where inputs and outputs are provided but without an unsigned tx",
                    "global map has no PSBT_GLOBAL_UNSIGNED_TX (0x00)"),
            Map.entry("PSBT with duplicate keys in an input", "input 0: duplicate key PSBT_IN_NON_WITNESS_UTXO (0x00)"),
            Map.entry(
                    "PSBT with invalid global transaction typed key",
                    "global map: PSBT_GLOBAL_UNSIGNED_TX (0x00) key has 1 byte(s) of key data, expected none"),
            Map.entry(
                    "PSBT with invalid input witness utxo typed key",
                    "input 0: PSBT_IN_WITNESS_UTXO (0x01) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid pubkey length for input partial signature typed key",
                    "input 0: PSBT_IN_PARTIAL_SIG (0x02) key holds 32 byte(s) that are not a public key"),
            Map.entry(
                    "PSBT with invalid redeemscript typed key",
                    "input 0: PSBT_IN_REDEEM_SCRIPT (0x04) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid witnessscript typed key",
                    "input 0: PSBT_IN_WITNESS_SCRIPT (0x05) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid pubkey in input BIP 32 derivation paths typed key",
                    "input 0: PSBT_IN_BIP32_DERIVATION (0x06) key holds 32 byte(s) that are not a public key"),
            Map.entry(
                    "PSBT with invalid non-witness utxo typed key",
                    "input 0: PSBT_IN_NON_WITNESS_UTXO (0x00) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid final scriptsig typed key",
                    "input 0: PSBT_IN_FINAL_SCRIPTSIG (0x07) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid final script witness typed key",
                    "input 1: PSBT_IN_FINAL_SCRIPTWITNESS (0x08) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid pubkey in output BIP 32 derivation paths typed key",
                    "output 0: PSBT_OUT_BIP32_DERIVATION (0x02) key holds 32 byte(s) that are not a public key"),
            Map.entry(
                    "PSBT with invalid input sighash type typed key",
                    "input 0: PSBT_IN_SIGHASH_TYPE (0x03) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid output redeemScript typed key",
                    "output 0: PSBT_OUT_REDEEM_SCRIPT (0x00) key has 1 byte(s) of key data"),
            Map.entry(
                    "PSBT with invalid output witnessScript typed key",
                    "output 1: PSBT_OUT_WITNESS_SCRIPT (0x01) key has 32 byte(s) of key data"),
            Map.entry(
                    "PSBT with unsigned tx serialized with witness serialization format",
                    "is in the witness serialization"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_INTERNAL_KEY key that is too long (incorrectly serialized as compressed DER)",
                    "input 0: PSBT_IN_TAP_INTERNAL_KEY (0x17) value is 33 bytes, expected 32"),
            Map.entry(
                    "PSBT With PSBT_KEY_PATH_SIG signature that is too short",
                    "input 0: PSBT_IN_TAP_KEY_SIG (0x13) value is 63 bytes"),
            Map.entry(
                    "PSBT With PSBT_KEY_PATH_SIG signature that is too long",
                    "input 0: PSBT_IN_TAP_KEY_SIG (0x13) value is 66 bytes"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_BIP32_DERIVATION key that is too long (incorrectly serialized as compressed DER)",
                    "input 0: PSBT_IN_TAP_BIP32_DERIVATION (0x16) key has 33 byte(s) of key data, expected 32"),
            Map.entry(
                    "PSBT With PSBT_OUT_TAP_INTERNAL_KEY key that is too long (incorrectly serialized as compressed DER)",
                    "output 1: PSBT_OUT_TAP_INTERNAL_KEY (0x05) value is 33 bytes, expected 32"),
            Map.entry(
                    "PSBT With PSBT_OUT_TAP_BIP32_DERIVATION key that is too long (incorrectly serialized as compressed DER)",
                    "output 1: PSBT_OUT_TAP_BIP32_DERIVATION (0x07) key has 33 byte(s) of key data, expected 32"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_SCRIPT_SIG key that is too long (incorrectly serialized as compressed DER)",
                    "input 0: PSBT_IN_TAP_SCRIPT_SIG (0x14) key has 65 byte(s) of key data, expected 64"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_SCRIPT_SIG signature that is too long",
                    "input 0: PSBT_IN_TAP_SCRIPT_SIG (0x14) value is 66 bytes"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_SCRIPT_SIG signature that is too short",
                    "input 0: PSBT_IN_TAP_SCRIPT_SIG (0x14) value is 63 bytes"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_LEAF_SCRIPT Control block that is too long",
                    "input 0: PSBT_IN_TAP_LEAF_SCRIPT (0x15) key is a control block of 98 bytes"),
            Map.entry(
                    "PSBT With PSBT_IN_TAP_LEAF_SCRIPT Control block that is too short",
                    "input 0: PSBT_IN_TAP_LEAF_SCRIPT (0x15) key is a control block of 96 bytes"));

    record Vector(String kind, String name, String base64) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Vector> vectors() throws IOException {
        List<Vector> all = new java.util.ArrayList<>(read("/bip174/vectors.txt"));
        all.addAll(read("/bip174/bip371-vectors.txt"));
        return all;
    }

    private static List<Vector> read(String resource) throws IOException {
        try (InputStream in = Bip174VectorsTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank())
                    .map(l -> l.split("\t"))
                    .map(f -> new Vector(f[0], f[1], f[2]))
                    .toList();
        }
    }

    static Stream<Arguments> valid() throws IOException {
        return vectors().stream().filter(v -> v.kind().equals("valid")).map(Arguments::of);
    }

    static Stream<Arguments> invalid() throws IOException {
        return vectors().stream().filter(v -> v.kind().equals("invalid")).map(Arguments::of);
    }

    @Test
    void theResourceHoldsEveryCaseOfTheBip() throws IOException {
        assertEquals(19 + 11, invalid().count());
        assertEquals(10 + 6, valid().count());
        assertEquals(
                WHY.keySet(),
                java.util.Set.copyOf(
                        invalid().map(a -> ((Vector) a.get()[0]).name()).toList()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void validPsbtDecodesAndEncodesToTheSameBytes(Vector v) {
        byte[] bytes = Base64.getDecoder().decode(v.base64());
        Psbt p = Psbt.decode(bytes);
        assertArrayEquals(bytes, p.serialize());
        assertEquals(v.base64(), p.toBase64());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidPsbtIsRefusedNamingTheField(Vector v) {
        PsbtFormatException e = assertThrows(PsbtFormatException.class, () -> Psbt.fromBase64(v.base64()));
        String why = WHY.get(v.name());
        assertTrue(e.getMessage().contains(why), () -> "expected \"" + why + "\" in: " + e.getMessage());
        assertTrue(e.getMessage().contains("(at byte " + e.offset() + ")"), e.getMessage());
    }
}
