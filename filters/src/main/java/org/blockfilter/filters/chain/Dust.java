package org.blockfilter.filters.chain;

/**
 * Bitcoin Core's dust rule from its relay policy ({@code GetDustThreshold} and {@code IsDust} in
 * Core's src/policy/policy.cpp, at the default {@code DUST_RELAY_TX_FEE} of 3,000 sat/kvB from
 * src/policy/policy.h): an output is dust when its value is below the fee, at that rate, of the
 * output itself plus an input spending it (32 + 4 + 1 + 107 + 4 = 148 bytes; for a witness
 * program 32 + 4 + 1 + 107 / 4 + 4 = 67 vbytes). That gives 546 sat for P2PKH, 540 for P2SH, 294
 * for P2WPKH and 330 for P2WSH and P2TR. Unspendable outputs (OP_RETURN, or a script over
 * {@code MAX_SCRIPT_SIZE}) are never dust. A node with default policy neither accepts into its
 * mempool nor relays a transaction with a dust output; blocks may still contain them. Stateless.
 */
public final class Dust {
    /** Core's {@code DUST_RELAY_TX_FEE}, satoshis per 1,000 virtual bytes. */
    public static final long DUST_RELAY_SAT_PER_KVB = 3_000;

    /** Core's {@code MAX_SCRIPT_SIZE}: a longer script is unspendable. */
    static final int MAX_SCRIPT_SIZE = 10_000;

    private static final int OP_RETURN = 0x6a;

    private Dust() {}

    /** The smallest value, in satoshis, an output with {@code script} may carry and still be relayed (0 if unspendable). */
    public static long threshold(byte[] script) {
        if (script.length > 0 && (script[0] & 0xff) == OP_RETURN || script.length > MAX_SCRIPT_SIZE) {
            return 0;
        }
        long size = 8 + compactSizeLength(script.length) + script.length;
        size += isWitnessProgram(script) ? 32 + 4 + 1 + 107 / 4 + 4 : 32 + 4 + 1 + 107 + 4;
        // CFeeRate::GetFee: rate * size / 1000, truncated.
        return DUST_RELAY_SAT_PER_KVB * size / 1000;
    }

    /** Whether {@code value} satoshis in an output with {@code script} is dust. */
    public static boolean isDust(long value, byte[] script) {
        return value < threshold(script);
    }

    /** "a P2WPKH", "a P2TR", ..., or "this" for other scripts: the output's kind, for messages. */
    public static String kindOf(byte[] s) {
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

    /** Core's {@code CScript::IsWitnessProgram}: a version opcode (OP_0, OP_1..OP_16) and one push of 2..40 bytes. */
    public static boolean isWitnessProgram(byte[] s) {
        if (s.length < 4 || s.length > 42) {
            return false;
        }
        int version = s[0] & 0xff;
        if (version != 0 && (version < 0x51 || version > 0x60)) {
            return false;
        }
        return (s[1] & 0xff) + 2 == s.length;
    }

    private static int compactSizeLength(long n) {
        return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
    }
}
