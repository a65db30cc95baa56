package org.blockfilter.regtest.embedded.internal;

import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;

/** A transaction output reference (txid, index). Immutable; txid is never null. */
public record OutPoint(Sha256Hash txid, long index) {
    public OutPoint {
        Objects.requireNonNull(txid, "txid");
    }

    public static OutPoint of(TransactionOutPoint o) {
        return new OutPoint(o.hash(), o.index());
    }

    @Override
    public String toString() {
        return txid + ":" + index;
    }
}
