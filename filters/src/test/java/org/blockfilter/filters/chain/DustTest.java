package org.blockfilter.filters.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bitcoin Core's dust limits (GetDustThreshold at 3,000 sat/kvB), the one copy the wallet and the node use. */
class DustTest {
    @ParameterizedTest(name = "{0}: {2} sat")
    @CsvSource({
        "P2PKH,  76a914" + "1111111111111111111111111111111111111111" + "88ac, 546, a P2PKH",
        "P2SH,   a914" + "1111111111111111111111111111111111111111" + "87, 540, a P2SH",
        "P2WPKH, 0014" + "1111111111111111111111111111111111111111" + ", 294, a P2WPKH",
        "P2WSH,  0020" + "1111111111111111111111111111111111111111111111111111111111111111" + ", 330, a P2WSH",
        "P2TR,   5120" + "1111111111111111111111111111111111111111111111111111111111111111" + ", 330, a P2TR",
        "witness v2, 5202" + "1111" + ", 240, a witness v2 program",
        "OP_RETURN, 6a0474657374, 0, this"
    })
    void limitsAreBitcoinCores(String kind, String scriptHex, long sats, String said) {
        byte[] script = HexFormat.of().parseHex(scriptHex);
        assertEquals(sats, Dust.threshold(script), kind);
        assertEquals(said, Dust.kindOf(script));
        if (sats > 0) {
            assertTrue(Dust.isDust(sats - 1, script));
            assertFalse(Dust.isDust(sats, script));
        }
    }

    @Test
    void anUnspendablyLongScriptIsNeverDust() {
        assertEquals(0, Dust.threshold(new byte[Dust.MAX_SCRIPT_SIZE + 1]));
        // At the limit it is spendable: 8 + 3 + 10,000 + 148 bytes at 3 sat/vB.
        assertEquals(3 * (8 + 3 + Dust.MAX_SCRIPT_SIZE + 148), Dust.threshold(new byte[Dust.MAX_SCRIPT_SIZE]));
    }

    @Test
    void aWitnessProgramIsAVersionOpcodeAndOnePushOfTwoToFortyBytes() {
        assertTrue(Dust.isWitnessProgram(HexFormat.of().parseHex("00020000")));
        assertFalse(Dust.isWitnessProgram(HexFormat.of().parseHex("000100")), "push of 1 byte");
        assertFalse(Dust.isWitnessProgram(new byte[] {0x51, 41}), "too short for its push");
        assertFalse(Dust.isWitnessProgram(HexFormat.of().parseHex("4f020000")), "OP_1NEGATE is no version");
        assertFalse(Dust.isWitnessProgram(HexFormat.of().parseHex("00040000")), "push length does not match");
    }
}
