package org.blockfilter.server.store;

import org.rocksdb.WriteBatch;

/**
 * A block's batch, encoded ahead of {@link IndexStore#connect(PendingBlock, boolean)} (on another thread
 * than the writer, while earlier blocks are written). Holds native memory: close it when it
 * is not connected. Not thread-safe; one owner at a time.
 */
public final class PendingBlock implements AutoCloseable {
    final StoredBlock block;
    final WriteBatch batch;

    PendingBlock(StoredBlock block, WriteBatch batch) {
        this.block = block;
        this.batch = batch;
    }

    /** The block this batch connects. */
    public StoredBlock block() {
        return block;
    }

    @Override
    public void close() {
        batch.close();
    }
}
