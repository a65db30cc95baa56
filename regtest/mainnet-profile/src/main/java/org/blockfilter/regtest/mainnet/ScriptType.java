package org.blockfilter.regtest.mainnet;

/**
 * The output script types the profile generates, with their scriptPubKey lengths and the type
 * names Bitcoin Core's RPC uses ({@code scriptPubKey.type}).
 */
public enum ScriptType {
    P2WPKH("witness_v0_keyhash", 22),
    P2TR("witness_v1_taproot", 34),
    P2PKH("pubkeyhash", 25),
    P2SH("scripthash", 23),
    P2WSH("witness_v0_scripthash", 34),
    OP_RETURN("nulldata", -1);

    private static final ScriptType[] VALUES = values();

    private final String coreName;
    private final int scriptLength;

    ScriptType(String coreName, int scriptLength) {
        this.coreName = coreName;
        this.scriptLength = scriptLength;
    }

    /** The name Bitcoin Core gives the type in {@code scriptPubKey.type}. */
    public String coreName() {
        return coreName;
    }

    /** The scriptPubKey length in bytes; -1 for OP_RETURN, whose length varies. */
    public int scriptLength() {
        return scriptLength;
    }

    static ScriptType ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    /** Classifies a scriptPubKey by its template; null if it fits none of the profile's types. */
    public static ScriptType classify(byte[] s) {
        int n = s.length;
        if (n > 0 && (s[0] & 0xff) == 0x6a) {
            return OP_RETURN;
        }
        if (n == 22 && s[0] == 0x00 && s[1] == 0x14) {
            return P2WPKH;
        }
        if (n == 34 && s[0] == 0x00 && s[1] == 0x20) {
            return P2WSH;
        }
        if (n == 34 && s[0] == 0x51 && s[1] == 0x20) {
            return P2TR;
        }
        if (n == 25 && (s[0] & 0xff) == 0x76 && (s[1] & 0xff) == 0xa9 && s[2] == 0x14) {
            return P2PKH;
        }
        if (n == 23 && (s[0] & 0xff) == 0xa9 && s[1] == 0x14 && (s[22] & 0xff) == 0x87) {
            return P2SH;
        }
        return null;
    }
}
