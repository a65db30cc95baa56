package org.blockfilter.wallet.keys;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A scriptPubKey as a value: compares by content, usable as a map key. Immutable; copies its
 * bytes in and out.
 */
public final class OutputScript {
    private final byte[] bytes;
    private final int hash;

    private OutputScript(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    public static OutputScript of(byte[] bytes) {
        return new OutputScript(bytes.clone());
    }

    public static OutputScript ofHex(String hex) {
        return new OutputScript(HexFormat.of().parseHex(hex));
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    /** The bytes without a copy, for hot loops that promise not to modify them. */
    byte[] unsafeBytes() {
        return bytes;
    }

    public String hex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutputScript s && Arrays.equals(bytes, s.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return hex();
    }
}
