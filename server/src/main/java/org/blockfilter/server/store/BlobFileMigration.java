package org.blockfilter.server.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves filters that an earlier version stored in RocksDB blob files back into the block column
 * family, so that secondary instances can read the index (they cannot read blob files:
 * facebook/rocksdb#13296). Stateless.
 */
final class BlobFileMigration {
    private static final Logger LOG = LoggerFactory.getLogger(IndexStore.class);
    private static final long BATCH_BYTES = 64L << 20;

    private BlobFileMigration() {}

    /**
     * Rewrites every block record and compacts the family (a no-op without blob files).
     *
     * @return whether there were blob files to migrate
     * @throws StoreException if blob files are left afterwards
     */
    static boolean migrate(Path dir, RocksDB db, ColumnFamilyHandle blocks, WriteOptions async, WriteOptions sync)
            throws RocksDBException {
        if (blobFiles(dir).isEmpty()) {
            return false;
        }
        LOG.info("event=store_migration dir={} reason=\"filters in blob files, which secondaries cannot read\"", dir);
        long bytes = 0;
        WriteBatch batch = new WriteBatch();
        try (RocksIterator it = db.newIterator(blocks)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] value = it.value();
                batch.put(blocks, it.key(), value);
                bytes += value.length;
                if (bytes >= BATCH_BYTES) {
                    db.write(async, batch);
                    batch.close();
                    batch = new WriteBatch();
                    bytes = 0;
                }
            }
            it.status();
            db.write(sync, batch);
        } finally {
            batch.close();
        }
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush, blocks);
        }
        db.compactRange(blocks);
        List<Path> left = blobFiles(dir);
        if (!left.isEmpty()) {
            throw new StoreException("index in " + dir + " still has " + left.size()
                    + " blob files after moving its filters inline: " + left.get(0));
        }
        return true;
    }

    /**
     * Refuses to open an index with blob files as a secondary: RocksDB secondaries cannot read
     * them (reading one crashes the process).
     *
     * @throws StoreException naming what to do if {@code dir} has blob files
     */
    static void refuseSecondary(Path dir) {
        List<Path> blobs = blobFiles(dir);
        if (!blobs.isEmpty()) {
            throw new StoreException("the index in " + dir + " was written by an earlier version that keeps filters in "
                    + blobs.size() + " RocksDB blob files, which a read-only secondary cannot read: start the"
                    + " indexing server (the primary) on it once with this version to move them inline");
        }
    }

    /** The RocksDB blob files in {@code dir}. */
    static List<Path> blobFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".blob"))
                    .toList();
        } catch (IOException e) {
            throw new StoreException("cannot list " + dir + ": " + e, e);
        }
    }
}
