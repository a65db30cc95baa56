package org.blockfilter.server.store;

import java.util.Arrays;
import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;

/**
 * An outpoint with the output script it locks, as the unspent-script map and the undo data
 * hold them. Immutable (the script is copied in and out); equality by content. No nulls.
 */
public final class UnspentOutput {
    private final Sha256Hash txId;
    private final long index;
    private final byte[] script;

    public UnspentOutput(Sha256Hash txId, long index, byte[] script) {
        this.txId = Objects.requireNonNull(txId, "txId");
        if (index < 0 || index > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("output index out of range: " + index);
        }
        this.index = index;
        this.script = Objects.requireNonNull(script, "script").clone();
    }

    public static UnspentOutput of(TransactionOutPoint outpoint, byte[] script) {
        return new UnspentOutput(outpoint.hash(), outpoint.index(), script);
    }

    public Sha256Hash txId() {
        return txId;
    }

    public long index() {
        return index;
    }

    public byte[] script() {
        return script.clone();
    }

    public TransactionOutPoint outpoint() {
        return new TransactionOutPoint(index, txId);
    }

    byte[] scriptUnsafe() {
        return script;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UnspentOutput u
                && index == u.index
                && txId.equals(u.txId)
                && Arrays.equals(script, u.script);
    }

    @Override
    public int hashCode() {
        return txId.hashCode() * 31 + Long.hashCode(index);
    }

    @Override
    public String toString() {
        return txId + ":" + index;
    }
}
