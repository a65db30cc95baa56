package org.blockfilter.regtest.mainnet.internal;

/**
 * Script ids and the scriptPubKeys they stand for. An id packs the type's ordinal (in
 * {@code org.blockfilter.regtest.mainnet.ScriptType} order) in its low 3 bits; the rest is a
 * counter, with bit 30 set for the reuser population. The script's hash bytes are a pure
 * function of the seed and the id, so a UTXO needs only its 4-byte id in memory. Stateless.
 */
public final class Scripts {
    public static final int P2WPKH = 0;
    public static final int P2TR = 1;
    public static final int P2PKH = 2;
    public static final int P2SH = 3;
    public static final int P2WSH = 4;
    public static final int OP_RETURN = 5;
    /** The id of an OP_RETURN output (never spent, its bytes are written inline). */
    public static final int NULL_DATA_ID = OP_RETURN;

    private static final int REUSER_FLAG = 1 << 30;

    private Scripts() {}

    public static int type(int id) {
        return id & 7;
    }

    public static int fresh(long counter, int type) {
        if (counter >= (1L << 27)) {
            throw new IllegalStateException("more than 2^27 fresh scripts; the profile is too large");
        }
        return (int) (counter << 3) | type;
    }

    public static int reuser(int rank, int type) {
        return REUSER_FLAG | (rank << 3) | type;
    }

    /** Appends the scriptPubKey of {@code id} (not OP_RETURN). */
    public static void write(ByteSink out, long seed, int id) {
        switch (type(id)) {
            case P2WPKH -> {
                out.u8(0x00);
                out.u8(0x14);
                payload(out, seed, id, 20);
            }
            case P2TR -> {
                out.u8(0x51);
                out.u8(0x20);
                payload(out, seed, id, 32);
            }
            case P2PKH -> {
                out.u8(0x76);
                out.u8(0xa9);
                out.u8(0x14);
                payload(out, seed, id, 20);
                out.u8(0x88);
                out.u8(0xac);
            }
            case P2SH -> {
                out.u8(0xa9);
                out.u8(0x14);
                payload(out, seed, id, 20);
                out.u8(0x87);
            }
            case P2WSH -> {
                out.u8(0x00);
                out.u8(0x20);
                payload(out, seed, id, 32);
            }
            default -> throw new IllegalArgumentException("no script for id " + id);
        }
    }

    /** The length of {@link #write}'s output. */
    public static int length(int id) {
        return switch (type(id)) {
            case P2WPKH -> 22;
            case P2TR, P2WSH -> 34;
            case P2PKH -> 25;
            case P2SH -> 23;
            default -> throw new IllegalArgumentException("no script for id " + id);
        };
    }

    private static void payload(ByteSink out, long seed, int id, int len) {
        long base = seed * 0x2545F4914F6CDD1DL + ((long) id << 8);
        for (int i = 0; i < len; i += 8) {
            long r = Rng.mix(base + i);
            for (int k = 0; k < 8 && i + k < len; k++) {
                out.u8((int) (r >>> (8 * k)));
            }
        }
    }

    /** Whether spending this type needs a witness (P2SH is modelled as P2SH-P2WPKH). */
    public static boolean spendHasWitness(int type) {
        return type != P2PKH;
    }

    /** Appends the scriptSig (with its length) spending an output of {@code type}. */
    public static void writeScriptSig(ByteSink out, Rng rng, int type) {
        switch (type) {
            case P2PKH -> {
                // <sig 71-72> <compressed pubkey 33>
                int sig = 71 + rng.nextInt(2);
                out.varInt(1 + sig + 1 + 33);
                out.u8(sig);
                out.noise(rng, sig);
                out.u8(33);
                out.u8(0x02 + rng.nextInt(2));
                out.noise(rng, 32);
            }
            case P2SH -> {
                // the P2SH-P2WPKH redeem script push: 0x16 0x00 0x14 <20>
                out.varInt(23);
                out.u8(0x16);
                out.u8(0x00);
                out.u8(0x14);
                out.noise(rng, 20);
            }
            default -> out.varInt(0);
        }
    }

    /** Appends the witness stack spending an output of {@code type} (an empty stack for P2PKH). */
    public static void writeWitness(ByteSink out, Rng rng, int type) {
        switch (type) {
            case P2WPKH, P2SH -> {
                int sig = 71 + rng.nextInt(2);
                out.varInt(2);
                out.varInt(sig);
                out.noise(rng, sig);
                out.varInt(33);
                out.u8(0x02 + rng.nextInt(2));
                out.noise(rng, 32);
            }
            case P2TR -> {
                // key path: one 64-byte Schnorr signature (SIGHASH_DEFAULT)
                out.varInt(1);
                out.varInt(64);
                out.noise(rng, 64);
            }
            case P2WSH -> {
                // 2-of-3 multisig: <> <sig> <sig> <OP_2 <33> <33> <33> OP_3 OP_CHECKMULTISIG>
                out.varInt(4);
                out.varInt(0);
                for (int i = 0; i < 2; i++) {
                    int sig = 71 + rng.nextInt(2);
                    out.varInt(sig);
                    out.noise(rng, sig);
                }
                out.varInt(105);
                out.u8(0x52);
                for (int i = 0; i < 3; i++) {
                    out.u8(33);
                    out.u8(0x02 + rng.nextInt(2));
                    out.noise(rng, 32);
                }
                out.u8(0x53);
                out.u8(0xae);
            }
            default -> out.varInt(0);
        }
    }
}
