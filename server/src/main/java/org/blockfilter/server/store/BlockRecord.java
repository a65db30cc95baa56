package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import org.bitcoinj.base.Sha256Hash;

/**
 * One block record of the {@code block} column family as read, undecoded: what serving a filter
 * needs (height, filter hash, the filter bytes) without the copies of {@link StoredBlock}.
 * Immutable to its users: the filter is handed out as a read-only view of the record's bytes,
 * which nothing else holds. Thread-safe.
 */
public final class BlockRecord {
    private final Sha256Hash blockHash;
    private final byte[] value;

    BlockRecord(Sha256Hash blockHash, byte[] value) {
        if (value.length < RecordCodec.RECORD_FIXED) {
            throw new StoreException("store corrupt: block record of " + blockHash + " has " + value.length + " bytes");
        }
        this.blockHash = blockHash;
        this.value = value;
    }

    public Sha256Hash blockHash() {
        return blockHash;
    }

    public int height() {
        return RecordCodec.recordHeight(value);
    }

    /** The double-SHA256 of the filter (the filter's BIP 157 hash). */
    public Sha256Hash filterHash() {
        byte[] hash = new byte[32];
        System.arraycopy(value, RecordCodec.RECORD_FIXED - 3 * 32, hash, 0, 32);
        return Sha256Hash.wrapReversed(hash);
    }

    /** The record's bytes; not a copy, for {@link RecordCodec#decodeBlock}. */
    byte[] value() {
        return value;
    }

    /** The serialized basic filter, as a read-only view (position 0, limit its length). */
    public ByteBuffer filter() {
        return ByteBuffer.wrap(value, RecordCodec.RECORD_FIXED, value.length - RecordCodec.RECORD_FIXED)
                .slice()
                .asReadOnlyBuffer();
    }
}
