package org.blockfilter.wallet.psbt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Bad input of our own making beside the BIPs' vectors: each refused with the field and offset named. */
class PsbtDecoderTest {
    /** BIP 174's "PSBT with unknown types in the inputs" (one input, one OP_RETURN output). */
    private static final byte[] UNKNOWN = Base64.getDecoder()
            .decode(
                    "cHNidP8BAD8CAAAAAf//////////////////////////////////////////AAAAAAD/////AQAAAAAAAAAAA2oBAAAAAAAACvABAgMEBQYHCAkPAQIDBAUGBwgJCgsMDQ4PAAA=");

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static String refused(byte[] bytes) {
        return assertThrows(PsbtFormatException.class, () -> Psbt.decode(bytes)).getMessage();
    }

    @Test
    void unknownKeysArePassedThroughInOrder() {
        Psbt p = Psbt.decode(UNKNOWN);
        PsbtMap.Entry e = p.input(0).entries().get(0);
        assertEquals(0xf0, e.type());
        assertArrayEquals(hex("010203040506070809"), e.keyData());
        assertArrayEquals(hex("0102030405060708090a0b0c0d0e0f"), e.value());
        assertArrayEquals(UNKNOWN, p.serialize());
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] longer = Arrays.copyOf(UNKNOWN, UNKNOWN.length + 1);
        String m = refused(longer);
        assertTrue(m.contains("1 byte(s) after the last map") && m.endsWith("(at byte " + UNKNOWN.length + ")"), m);
    }

    @Test
    void everyTruncationIsRefusedWithAnOffset() {
        for (int n = 0; n < UNKNOWN.length; n++) {
            String m = refused(Arrays.copyOf(UNKNOWN, n));
            assertTrue(m.contains("(at byte "), m);
        }
    }

    @Test
    void randomBytesAreRefusedCleanly() {
        Random r = new Random(174);
        for (int i = 0; i < 2000; i++) {
            byte[] b = Arrays.copyOf(UNKNOWN, UNKNOWN.length);
            b[5 + r.nextInt(b.length - 5)] = (byte) r.nextInt(256);
            try {
                Psbt.decode(b);
            } catch (PsbtFormatException expected) {
                // refused, with a message: fine
            }
        }
    }

    @Test
    void rejectsAKeyTypeThatIsNotMinimallyEncoded() {
        // global map: key length 3, key type 0xfd 0x00 0x00 (0 as a 3-byte compact size)
        String m = refused(hex("70736274ff03fd000000"));
        assertTrue(m.contains("global map key type: compact size 0 is not minimally encoded (at byte 6)"), m);
    }

    @Test
    void rejectsALengthLongerThanWhatRemains() {
        String m = refused(hex("70736274ff0100ff"));
        assertTrue(m.contains("global map value length"), m);
        String n = refused(hex("70736274ff01000a00"));
        assertTrue(n.contains("global map value says 10 bytes but 1 remain (at byte 8)"), n);
    }

    @Test
    void refusesVersion2AndItsFields() {
        byte[] v2 = hex("70736274ff01fb0402000000" + "01000a0000000000000000000000");
        assertTrue(refused(v2).contains("PSBT version 2 is not supported"));
        byte[] txVersion = hex("70736274ff010204020000000100" + "0a000000000000000000000000");
        assertTrue(refused(txVersion).contains("PSBT_GLOBAL_TX_VERSION (0x02) is a BIP 370 (version 2) field"));
    }

    @Test
    void refusesADuplicateGlobalKey() {
        String tx = "01000a" + "00".repeat(10);
        String m = refused(hex("70736274ff" + tx + tx + "00"));
        assertTrue(m.contains("global map: duplicate key PSBT_GLOBAL_UNSIGNED_TX (0x00) (at byte 18)"), m);
    }

    @Test
    void refusesANonWitnessUtxoThatIsNotTheSpentTransaction() {
        Psbt p = Psbt.decode(UNKNOWN);
        byte[] someTx = p.unsignedTx().serialize(); // not the transaction with the all-ff txid it spends
        byte[] bad = p.withInput(0, PsbtMap.EMPTY.with(PsbtField.IN_NON_WITNESS_UTXO.type(), someTx))
                .serialize();
        assertTrue(refused(bad).contains("input 0: PSBT_IN_NON_WITNESS_UTXO (0x00) is transaction"));
    }

    @Test
    void refusesAnIncompleteTaprootTree() {
        Psbt p = Psbt.decode(UNKNOWN);
        // one leaf at depth 1: a tree with a missing sibling
        byte[] bad = p.withOutput(0, PsbtMap.EMPTY.with(PsbtField.OUT_TAP_TREE.type(), hex("01c00151")))
                .serialize();
        assertTrue(refused(bad).contains("output 0: PSBT_OUT_TAP_TREE (0x06) is not a complete tree"));
        byte[] good = p.withOutput(0, PsbtMap.EMPTY.with(PsbtField.OUT_TAP_TREE.type(), hex("01c0015101c00152")))
                .serialize();
        assertArrayEquals(good, Psbt.decode(good).serialize());
    }

    @Test
    void combineRefusesPsbtsOfDifferentTransactions() {
        Psbt a = Psbt.decode(UNKNOWN);
        Psbt b = Psbt.decode(hex("70736274ff01000a0000000000000000000000"));
        String m =
                assertThrows(IllegalArgumentException.class, () -> a.combine(b)).getMessage();
        assertTrue(m.startsWith("cannot combine PSBTs of different transactions"), m);
    }
}
