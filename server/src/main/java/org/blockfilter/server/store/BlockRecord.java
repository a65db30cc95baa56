package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import org.bitcoinj.base.Sha256Hash;

/**
 * One block record of the {@code block} column family as read, undecoded: what serving a filter
 * needs (height, filter hash, the filter bytes) without the copies of {@link StoredBlock}. The
 * record's bytes are a heap array or a region of a buffer the caller lent the read ({@link
 * IndexStore#blockRecord(Sha256Hash, ByteBuffer)}); this is valid while they are. Immutable to
 * its users: the filter is handed out as a read-only view of the record's bytes. Thread-safe.
 */
public final class BlockRecord {
    private final Sha256Hash blockHash;
    private final ByteBuffer value;

    BlockRecord(Sha256Hash blockHash, byte[] value) {
        this(blockHash, ByteBuffer.wrap(value));
    }

    /** Over {@code value}'s remaining bytes (not copied). */
    BlockRecord(Sha256Hash blockHash, ByteBuffer value) {
        if (value.remaining() < RecordCodec.RECORD_FIXED) {
            throw new StoreException(
                    "store corrupt: block record of " + blockHash + " has " + value.remaining() + " bytes");
        }
        this.blockHash = blockHash;
        this.value = value.slice();
    }

    public Sha256Hash blockHash() {
        return blockHash;
    }

    public int height() {
        return value.getInt(0);
    }

    /** The double-SHA256 of the filter (the filter's BIP 157 hash). */
    public Sha256Hash filterHash() {
        byte[] hash = new byte[32];
        value.get(RecordCodec.RECORD_FIXED - 3 * 32, hash);
        return Sha256Hash.wrapReversed(hash);
    }

    /** The record's bytes for {@link RecordCodec#decodeBlock}: the array read, else a copy. */
    byte[] value() {
        if (value.hasArray() && value.arrayOffset() == 0 && value.array().length == value.remaining()) {
            return value.array();
        }
        byte[] copy = new byte[value.remaining()];
        value.get(0, copy);
        return copy;
    }

    /** The serialized basic filter, as a read-only view (position 0, limit its length). */
    public ByteBuffer filter() {
        return value.slice(RecordCodec.RECORD_FIXED, value.remaining() - RecordCodec.RECORD_FIXED)
                .asReadOnlyBuffer();
    }
}
