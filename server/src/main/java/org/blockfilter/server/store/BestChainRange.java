package org.blockfilter.server.store;

import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The cursor behind {@link IndexStore#openActiveRange}: best-chain blocks of one range read
 * through one {@link ReadOptions} (a snapshot on a primary) as they are asked for. What it holds
 * (the options, the snapshot, the store's read lock) is given back by the {@code release} action
 * on {@link #close()}. Not thread-safe: one owner, the thread that opened it.
 */
final class BestChainRange implements IndexStore.ActiveRangeCursor {
    private final RocksDB db;
    private final ColumnFamilyHandle blocks;
    private final ColumnFamilyHandle heights;
    private final ReadOptions options;
    private final Runnable release;
    private final java.util.function.Function<RocksDBException, StoreException> failed;
    private final int stopHeight;
    private int next;
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
        this.heights = heights;
        this.options = options;
        this.next = startHeight;
        this.stopHeight = stopHeight;
        this.release = release;
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
        if (!hasNext()) {
            throw new NoSuchElementException("range ends at height " + stopHeight);
        }
        int h = next++;
        try {
            byte[] hash = db.get(heights, options, RecordCodec.heightKey(h));
            byte[] value = hash == null ? null : db.get(blocks, options, hash);
            if (value == null) {
                throw new StoreException("store corrupt: best chain has no block record at height " + h);
            }
            return RecordCodec.decodeBlock(Sha256Hash.wrapReversed(hash), value);
        } catch (RocksDBException e) {
            throw failed.apply(e);
        }
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        release.run();
    }
}
