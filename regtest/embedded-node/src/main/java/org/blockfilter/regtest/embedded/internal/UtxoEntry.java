package org.blockfilter.regtest.embedded.internal;

import java.util.Arrays;
import java.util.Objects;

/**
 * An unspent output: value in satoshis, its script, the height of the block that created it
 * (or the next height for a mempool output) and whether a coinbase created it. Immutable: the
 * script is copied in and out.
 */
public final class UtxoEntry {
    private final long value;
    private final byte[] script;
    private final int height;
    private final boolean coinbase;

    public UtxoEntry(long value, byte[] script, int height, boolean coinbase) {
        this.value = value;
        this.script = Objects.requireNonNull(script, "script").clone();
        this.height = height;
        this.coinbase = coinbase;
    }

    public long value() {
        return value;
    }

    public byte[] script() {
        return script.clone();
    }

    /** The script without copying, for read-only use inside this package. */
    byte[] scriptUnsafe() {
        return script;
    }

    public int height() {
        return height;
    }

    public boolean coinbase() {
        return coinbase;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UtxoEntry u
                && u.value == value
                && u.height == height
                && u.coinbase == coinbase
                && Arrays.equals(u.script, script);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, height, coinbase, Arrays.hashCode(script));
    }
}
