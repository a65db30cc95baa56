package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Block records read into a buffer the caller lends ({@link IndexStore#blockRecord(Sha256Hash,
 * ByteBuffer)}): RocksDB copies the value from its table file straight into direct memory, where
 * a ~20 KB filter is written to the socket from, instead of into a new zeroed Java array that the
 * JDK then copies into a temporary direct buffer for the write. Stateless.
 */
final class RecordReads {
    private static final int KEY = 32;

    private RecordReads() {}

    /**
     * The record of {@code hash} read straight into {@code buffer} (direct; its first 32 remaining
     * bytes take the key, the record follows), valid while those bytes are; one that does not fit,
     * or a heap buffer, is read onto the heap. Empty if the block is not indexed.
     */
    static Optional<BlockRecord> blockRecord(
            RocksDB db, ColumnFamilyHandle blocks, ReadOptions options, Sha256Hash hash, ByteBuffer buffer)
            throws RocksDBException {
        byte[] keyBytes = hash.serialize();
        if (!buffer.isDirect() || buffer.remaining() < KEY + RecordCodec.RECORD_FIXED) {
            return heap(db, blocks, options, hash, keyBytes);
        }
        ByteBuffer key = buffer.slice(buffer.position(), KEY).put(keyBytes).flip();
        ByteBuffer value = buffer.slice(buffer.position() + KEY, buffer.remaining() - KEY);
        int size = db.get(blocks, options, key, value);
        if (size == RocksDB.NOT_FOUND) {
            return Optional.empty();
        }
        if (size > value.capacity()) {
            return heap(db, blocks, options, hash, keyBytes); // only part of it was copied
        }
        return Optional.of(new BlockRecord(hash, value));
    }

    private static Optional<BlockRecord> heap(
            RocksDB db, ColumnFamilyHandle blocks, ReadOptions options, Sha256Hash hash, byte[] key)
            throws RocksDBException {
        return Optional.ofNullable(db.get(blocks, options, key)).map(v -> new BlockRecord(hash, v));
    }
}
