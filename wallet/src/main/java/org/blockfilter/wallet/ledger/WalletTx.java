package org.blockfilter.wallet.ledger;

import java.nio.ByteBuffer;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;

/**
 * One of the wallet's transactions: confirmed at {@code height} in {@code blockHash}, or pending
 * ({@code height == -1}, {@code blockHash == null}). Immutable; keeps the serialized bytes and
 * parses on demand, so callers cannot mutate a shared bitcoinj object.
 */
public record WalletTx(Sha256Hash txid, int height, Sha256Hash blockHash, byte[] raw) {
    /** The {@code height} of a transaction that is not in a block. */
    public static final int PENDING = -1;

    public WalletTx {
        raw = raw.clone();
    }

    /**
     * The wallet's record of {@code tx}, confirmed at {@code height} in {@code blockHash} or pending ({@link #PENDING},
     * null).
     */
    public static WalletTx of(Transaction tx, int height, Sha256Hash blockHash) {
        return new WalletTx(tx.getTxId(), height, blockHash, tx.serialize());
    }

    @Override
    public byte[] raw() {
        return raw.clone();
    }

    /** The transaction, parsed afresh on every call (a new bitcoinj object the caller may keep). */
    public Transaction tx() {
        return Transaction.read(ByteBuffer.wrap(raw));
    }

    /** Whether the transaction is not in a block. */
    public boolean pending() {
        return height == PENDING;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WalletTx t
                && txid.equals(t.txid)
                && height == t.height
                && java.util.Objects.equals(blockHash, t.blockHash);
    }

    @Override
    public int hashCode() {
        return txid.hashCode() * 31 + height;
    }
}
