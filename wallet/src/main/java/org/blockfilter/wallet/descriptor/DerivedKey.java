package org.blockfilter.wallet.descriptor;

import java.util.Arrays;
import java.util.Optional;
import org.bitcoinj.crypto.ECKey;

/**
 * One public key of a derived output, with where it comes from: what a PSBT's BIP 32 derivation
 * fields carry. Immutable; copies its bytes in and out.
 */
public final class DerivedKey {
    private final byte[] publicKey;
    private final KeyOrigin origin;
    private final ECKey privateKey;

    DerivedKey(byte[] publicKey, KeyOrigin origin, ECKey privateKey) {
        this.publicKey = publicKey.clone();
        this.origin = origin;
        this.privateKey = privateKey;
    }

    /**
     * The public key: 33 bytes compressed, or 65 uncompressed (only outside segwit). A key
     * written as 32-byte x-only inside {@code tr()} is given with the {@code 02} prefix (BIP 340's
     * even-y lift).
     */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The 32-byte x-only form (BIP 340), as {@code tr()} uses it. */
    public byte[] xOnly() {
        return Arrays.copyOfRange(publicKey, 1, 33);
    }

    /**
     * Where the key comes from: the origin written in the descriptor ({@code [fingerprint/path]})
     * followed by the steps derived after the extended key; without an origin in the descriptor,
     * the fingerprint of the key as written and the steps after it. Never null.
     */
    public KeyOrigin origin() {
        return origin;
    }

    /** The private key, when the descriptor holds it (xprv/tprv or WIF). */
    public Optional<ECKey> privateKey() {
        return Optional.ofNullable(privateKey);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DerivedKey k && Arrays.equals(publicKey, k.publicKey) && origin.equals(k.origin);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(publicKey) * 31 + origin.hashCode();
    }

    @Override
    public String toString() {
        return "[" + origin + "]" + java.util.HexFormat.of().formatHex(publicKey);
    }
}
