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

    /** The script with these bytes (copied). */
    public static OutputScript of(byte[] bytes) {
        return new OutputScript(bytes.clone());
    }

    /** The script with these hex bytes; throws {@link IllegalArgumentException} on bad hex. */
    public static OutputScript ofHex(String hex) {
        return new OutputScript(HexFormat.of().parseHex(hex));
    }

    /** A copy of the script's bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The bytes without a copy, for hot loops that promise not to modify them. */
    byte[] unsafeBytes() {
        return bytes;
    }

    /** The script's bytes in lower-case hex. */
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
