package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.CompactSize;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The cursor behind {@link IndexStore#openActiveRange}: best-chain blocks of one range read
 * through one {@link ReadOptions} (a snapshot on a primary) as they are asked for, the height
 * entries by one iterator (a range's heights are consecutive keys; one seek instead of a lookup
 * per block), the records by key. What it holds (the iterator, the options, the snapshot, the
 * store's read lock) is given back on {@link #close()}, the rest by the {@code release} action.
 * Not thread-safe: one owner, the thread that opened it.
 */
final class BestChainRange implements ActiveRangeCursor {
    private final RocksDB db;
    private final ColumnFamilyHandle blocks;
    private final ReadOptions options;
    private final Runnable release;
    private final java.util.function.Function<RocksDBException, StoreException> failed;
    private final int stopHeight;
    private int next;
    private final RocksIterator heightEntries;
    /** The height of the entry {@link #heightEntries} is at; below the range before the first. */
    private int entryHeight;
    // Scratch of writeNextEntry (direct: RocksDB's ByteBuffer gets take direct buffers only).
    private final ByteBuffer entryKey = ByteBuffer.allocateDirect(4);
    private final ByteBuffer hashValue = ByteBuffer.allocateDirect(32);
    private final ByteBuffer blockKey = ByteBuffer.allocateDirect(32);
    private final byte[] hashBytes = new byte[32];
    private final byte[] lengthBytes = new byte[9];
    private boolean open = true;

    BestChainRange(
            RocksDB db,
            ColumnFamilyHandle blocks,
            ColumnFamilyHandle heights,
            ReadOptions options,
            int startHeight,
            int stopHeight,
            java.util.function.Function<RocksDBException, StoreException> failed,
            Runnable release) {
        this.failed = failed;
        this.db = db;
        this.blocks = blocks;
        this.options = options;
        this.next = startHeight;
        this.stopHeight = stopHeight;
        this.release = release;
        this.entryHeight = startHeight - 1;
        this.heightEntries = db.newIterator(heights, options);
    }

    /**
     * The height of {@code stopHash} if it is on the best chain as {@code options} see it and not
     * below {@code startHeight}; empty otherwise.
     */
    static OptionalInt stopHeight(
            RocksDB db,
            ColumnFamilyHandle blocks,
            ColumnFamilyHandle heights,
            ReadOptions options,
            int startHeight,
            Sha256Hash stopHash)
            throws RocksDBException {
        byte[] stopValue = db.get(blocks, options, stopHash.serialize());
        if (stopValue == null) {
            return OptionalInt.empty();
        }
        int stopHeight = RecordCodec.recordHeight(stopValue);
        byte[] atStop = db.get(heights, options, RecordCodec.heightKey(stopHeight));
        if (stopHeight < startHeight || atStop == null || !Arrays.equals(atStop, stopHash.serialize())) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(stopHeight);
    }

    @Override
    public int stopHeight() {
        return stopHeight;
    }

    @Override
    public boolean hasNext() {
        return open && next <= stopHeight;
    }

    @Override
    public StoredBlock next() {
        BlockRecord r = nextRecord();
        return RecordCodec.decodeBlock(r.blockHash(), r.value());
    }

    @Override
    public BlockRecord nextRecord() {
        if (!hasNext()) {
            throw new NoSuchElementException("range ends at height " + stopHeight);
        }
        int h = next;
        try {
            seekHeight(h);
            byte[] hash = heightEntries.value();
            byte[] value = hash.length == 32 ? db.get(blocks, options, hash) : null;
            if (value == null) {
                throw corrupt(h);
            }
            next++;
            return new BlockRecord(Sha256Hash.wrapReversed(hash), value);
        } catch (RocksDBException e) {
            throw failed.apply(e);
        }
    }

    /** Puts {@link #heightEntries} at the entry of height {@code h} (the one it is at, or next). */
    private void seekHeight(int h) throws RocksDBException {
        if (entryHeight != h) {
            if (entryHeight == h - 1 && heightEntries.isValid()) {
                heightEntries.next();
            } else {
                heightEntries.seek(RecordCodec.heightKey(h));
            }
            entryHeight = h;
        }
        if (!heightEntries.isValid()) {
            heightEntries.status(); // throws what stopped it (damage); else the entry is missing
            throw corrupt(h);
        }
        entryKey.clear();
        if (heightEntries.key(entryKey) != 4 || entryKey.getInt(0) != h) {
            throw corrupt(h);
        }
    }

    @Override
    public boolean writeNextEntry(ByteBuffer out) {
        if (!hasNext()) {
            throw new NoSuchElementException("range ends at height " + stopHeight);
        }
        int h = next;
        int start = out.position();
        try {
            seekHeight(h);
            hashValue.clear();
            if (heightEntries.value(hashValue) != 32) {
                throw corrupt(h);
            }
            blockKey.clear();
            blockKey.put(hashValue).flip();
            // The record lands where the entry goes: [height | header | 3 hashes | filter].
            int size = db.get(blocks, options, blockKey, out);
            if (size == RocksDB.NOT_FOUND) {
                throw corrupt(h);
            }
            if (size > out.remaining()) {
                return false; // out.limit() was moved to what was copied; the caller resets it
            }
            if (size < RecordCodec.RECORD_FIXED) {
                throw new StoreException("store corrupt: block record at height " + h + " has " + size + " bytes");
            }
            int filterLength = size - RecordCodec.RECORD_FIXED;
            int sizeLength = CompactSize.write(filterLength, lengthBytes, 0);
            // Then [block hash | CompactSize length | filter] over it: the filter moves down.
            out.limit(out.capacity());
            out.put(start, hashKeyBytes(blockKey), 0, 32);
            out.put(start + 32, lengthBytes, 0, sizeLength);
            out.put(start + 32 + sizeLength, out, start + RecordCodec.RECORD_FIXED, filterLength);
            out.position(start + 32 + sizeLength + filterLength);
            next++;
            return true;
        } catch (RocksDBException e) {
            throw failed.apply(e);
        }
    }

    private byte[] hashKeyBytes(ByteBuffer key) {
        key.get(0, hashBytes);
        return hashBytes;
    }

    private static StoreException corrupt(int height) {
        return new StoreException("store corrupt: best chain has no block record at height " + height);
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        heightEntries.close();
        release.run();
    }
}
