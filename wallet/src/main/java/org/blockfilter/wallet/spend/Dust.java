package org.blockfilter.wallet.spend;

import org.bitcoinj.base.Coin;
import org.bitcoinj.base.VarInt;

/**
 * Bitcoin Core's dust rule ({@code GetDustThreshold} in Core's src/policy/policy.cpp, at the
 * default {@code DUST_RELAY_TX_FEE} of 3000 sat/kvB from src/policy/policy.h): an output is dust
 * when its value is below the fee, at 3 sat/vB, of the output itself plus an input spending it
 * (32 + 4 + 1 + 107 + 4 = 148 bytes; for a witness program 32 + 4 + 1 + 107 / 4 + 4 = 67 vbytes).
 * That gives 546 sat for P2PKH, 540 for P2SH, 294 for P2WPKH and 330 for P2WSH and P2TR. A node
 * with default policy does not relay a transaction with a dust output. Stateless.
 */
public final class Dust {
    /** Core's {@code DUST_RELAY_TX_FEE}, sat per 1000 vbytes. */
    static final long DUST_RELAY_SAT_PER_KVB = 3000;

    private static final int OP_RETURN = 0x6a;

    private Dust() {}

    /** The smallest value an output with {@code script} may carry and still be relayed (0 for OP_RETURN). */
    public static Coin threshold(byte[] script) {
        if (script.length > 0 && (script[0] & 0xff) == OP_RETURN) {
            return Coin.ZERO; // unspendable: never dust
        }
        long size = 8 + VarInt.sizeOf(script.length) + script.length;
        size += isWitnessProgram(script) ? 32 + 4 + 1 + 107 / 4 + 4 : 32 + 4 + 1 + 107 + 4;
        return Coin.valueOf(DUST_RELAY_SAT_PER_KVB * size / 1000);
    }

    /** "a P2WPKH" and so on, for messages. */
    static String kindOf(byte[] s) {
        int n = s.length;
        if (n == 25 && (s[0] & 0xff) == 0x76 && (s[1] & 0xff) == 0xa9 && s[2] == 20) {
            return "a P2PKH";
        }
        if (n == 23 && (s[0] & 0xff) == 0xa9 && s[1] == 20 && (s[22] & 0xff) == 0x87) {
            return "a P2SH";
        }
        if (isWitnessProgram(s)) {
            int version = s[0] == 0 ? 0 : (s[0] & 0xff) - 0x50;
            if (version == 0 && n == 22) {
                return "a P2WPKH";
            }
            if (version == 0 && n == 34) {
                return "a P2WSH";
            }
            if (version == 1 && n == 34) {
                return "a P2TR";
            }
            return "a witness v" + version + " program";
        }
        return "this";
    }

    /** Core's {@code CScript::IsWitnessProgram}: a version opcode (OP_0, OP_1..OP_16) and one 2..40-byte push. */
    static boolean isWitnessProgram(byte[] s) {
        if (s.length < 4 || s.length > 42) {
            return false;
        }
        int op = s[0] & 0xff;
        if (op != 0 && (op < 0x51 || op > 0x60)) {
            return false;
        }
        return (s[1] & 0xff) + 2 == s.length;
    }
}
