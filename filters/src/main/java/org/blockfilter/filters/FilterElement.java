package org.blockfilter.filters;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One item of a block filter: a script's bytes, compared by content.
 *
 * <p>Immutable and thread-safe; copies bytes in and out. Never null inside.
 */
public final class FilterElement {

    private final byte[] bytes;
    private final int hash;

    private FilterElement(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** An element holding a copy of {@code bytes}. */
    public static FilterElement of(byte[] bytes) {
        return new FilterElement(Objects.requireNonNull(bytes, "bytes").clone());
    }

    /** An element from hex. */
    public static FilterElement ofHex(String hex) {
        return new FilterElement(HexFormat.of().parseHex(hex));
    }

    /** A copy of the bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The bytes themselves, for this package's read-only use. */
    byte[] rawBytes() {
        return bytes;
    }

    /** Length in bytes. */
    public int length() {
        return bytes.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FilterElement && Arrays.equals(bytes, ((FilterElement) o).bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }
}
