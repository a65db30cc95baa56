package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteOptions;

/**
 * The index's RocksDB database with its column families and native options, opened as the
 * primary or as a secondary instance ({@link IndexStore} describes the layout). Closes everything
 * it opened, once. Not thread-safe: {@link IndexStore} guards it.
 */
final class StoreDatabase implements AutoCloseable {
    private static final List<String> FAMILIES = List.of("default", "block", "height", "utxo", "undo");

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    final RocksDB db;
    final WriteOptions syncWrite;
    final WriteOptions asyncWrite;
    /** The options of the reads that serve filters (checksums verified, as every read's). */
    final ReadOptions servingRead;

    /**
     * Opens (a primary creating what is missing) the database in {@code dir}.
     *
     * @param secondaryDir the secondary instance's own directory, or null for the primary
     * @param walRecovery  how RocksDB replays the write-ahead logs at open ({@link IndexStore#open})
     */
    StoreDatabase(Path dir, Path secondaryDir, WALRecoveryMode walRecovery) throws RocksDBException {
        boolean secondary = secondaryDir != null;
        RocksDB.loadLibrary();
        DBOptions options = track(new DBOptions()
                .setCreateIfMissing(!secondary)
                .setCreateMissingColumnFamilies(!secondary)
                .setKeepLogFileNum(5)
                // Table files are read through mmap: an uncompressed filter is then read from the
                // page cache in place, not copied into a block-cache block first (checksums are
                // still verified). Measured on mainnet-serving.sh's index: a random filter read with
                // its height check took 10-13 us of CPU instead of 15-17 us (the OS caches the files,
                // as it does for nginx).
                .setAllowMmapReads(true)
                .setWalRecoveryMode(walRecovery));
        if (secondary) {
            options.setMaxOpenFiles(-1); // RocksDB requires it of secondary instances
        }
        LRUCache cache = track(new LRUCache(64L << 20));
        BloomFilter bloom = track(new BloomFilter(10));
        BlockBasedTableConfig table =
                new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(bloom);
        ColumnFamilyOptions plain = track(new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION));
        // Filters are already entropy-coded: no compression. Blob files stay off: secondaries
        // cannot read them (see BlobFileMigration for indexes that have them).
        ColumnFamilyOptions filters = track(new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setEnableBlobFiles(false));
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        for (String name : FAMILIES) {
            descriptors.add(new ColumnFamilyDescriptor(
                    name.getBytes(StandardCharsets.US_ASCII), name.equals("block") ? filters : plain));
        }
        try {
            this.db = secondary
                    ? RocksDB.openAsSecondary(options, dir.toString(), secondaryDir.toString(), descriptors, handles)
                    : RocksDB.open(options, dir.toString(), descriptors, handles);
        } catch (RocksDBException | RuntimeException e) {
            closeOptions();
            throw e;
        }
        this.syncWrite = track(new WriteOptions().setSync(true));
        this.asyncWrite = track(new WriteOptions().setSync(false));
        this.servingRead = track(new ReadOptions().setFillCache(false));
    }

    /**
     * Checks the layout version a primary writes into a new index (a secondary reads it only).
     *
     * @throws StoreException for another version, or a secondary on an index without one
     */
    void checkVersion(boolean secondary) throws RocksDBException {
        ColumnFamilyHandle meta = handle(IndexStore.Family.META);
        byte[] version = db.get(meta, RecordCodec.KEY_VERSION);
        if (version == null && secondary) {
            throw new StoreException("the index has no layout version yet: is the primary still creating it?");
        } else if (version == null) {
            db.put(
                    meta,
                    RecordCodec.KEY_VERSION,
                    ByteBuffer.allocate(4).putInt(RecordCodec.LAYOUT_VERSION).array());
        } else if (version.length != 4 || ByteBuffer.wrap(version).getInt() != RecordCodec.LAYOUT_VERSION) {
            throw new StoreException("index store has layout version " + Arrays.toString(version)
                    + ", this server reads version " + RecordCodec.LAYOUT_VERSION + ": use a new --data-dir");
        }
    }

    /** The metadata's tip record; empty before genesis is indexed. */
    Optional<ChainTip> readTip() throws RocksDBException {
        byte[] value = db.get(handle(IndexStore.Family.META), RecordCodec.KEY_TIP);
        return value == null ? Optional.empty() : Optional.of(RecordCodec.decodeTip(value));
    }

    /** The handle of one column family. */
    ColumnFamilyHandle handle(IndexStore.Family family) {
        return handles.get(family.ordinal());
    }

    /** Closes the handles, then the database, then the options; call once. */
    @Override
    public void close() {
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        db.close();
        closeOptions();
    }

    private void closeOptions() {
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                throw new StoreException("error closing the index store: " + e, e);
            }
        }
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }
}
