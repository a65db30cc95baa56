package org.blockfilter.filters.p2p.v2;

/** BIP 324's rekey interval and the 12-byte nonces built from counters. Stateless. */
final class Rekeying {
    /** Messages (or length chunks) per key, BIP 324's REKEY_INTERVAL. */
    static final int INTERVAL = 224;

    private Rekeying() {}

    /** 4-byte little-endian {@code low} then 8-byte little-endian {@code high}. */
    static byte[] nonce(int low, long high) {
        byte[] n = new byte[12];
        for (int i = 0; i < 4; i++) {
            n[i] = (byte) (low >>> (8 * i));
        }
        for (int i = 0; i < 8; i++) {
            n[4 + i] = (byte) (high >>> (8 * i));
        }
        return n;
    }
}
