package org.blockfilter.server.store;

import static org.blockfilter.server.store.RecordCodec.KEY_GENESIS;
import static org.blockfilter.server.store.RecordCodec.KEY_TIP;
import static org.blockfilter.server.store.RecordCodec.decodeBlock;
import static org.blockfilter.server.store.RecordCodec.encodeBlock;
import static org.blockfilter.server.store.RecordCodec.encodeUndo;
import static org.blockfilter.server.store.RecordCodec.heightKey;
import static org.blockfilter.server.store.RecordCodec.outpointKey;
import static org.blockfilter.server.store.RecordCodec.tipValue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The filter index on disk: one RocksDB database in the data directory.
 *
 * <pre>
 * Column family "default" (metadata):
 *   "version"  -> u32 layout version (1)
 *   "genesis"  -> 32-byte genesis block hash; the store refuses to follow another chain
 *   "tip"      -> u32 height | 32-byte block hash of the highest indexed best-chain block
 *
 * Column family "block" (every block ever indexed, best chain or stale; never deleted):
 *   block hash (32) -> u32 height | 80-byte block header | filter hash (32) |
 *                      filter header (32) | previous filter header (32) | basic filter (rest)
 *   Stored inline and uncompressed (filters are entropy-coded). Not in RocksDB blob files:
 *   RocksDB secondary instances cannot read blob files (facebook/rocksdb#13296; reading one
 *   crashed the JVM), and {@code --read-only-secondary} and {@code export} are secondaries.
 *   An index written by an earlier version with blob files is moved inline by its first
 *   primary open ({@link #open}).
 *
 * Column family "height" (the best chain as indexed; entries above the tip are deleted
 * when a block is disconnected):
 *   u32 height -> block hash (32)
 *
 * Column family "utxo" (scripts of unspent outputs, what BIP 158 needs of the chain state;
 * OP_RETURN and over-10,000-byte scripts are never added because they cannot be spent):
 *   txid (32) | u32 output index -> scriptPubKey bytes
 *
 * Column family "undo" (how to disconnect a block; kept for the last {@code undoDepth}
 * best-chain blocks, pruned in the batch that connects the block undoDepth above):
 *   block hash (32) -> CompactSize spent count, each: txid (32) | u32 index | CompactSize
 *                      script length | script;  CompactSize created count, each: txid | u32 index
 * </pre>
 *
 * All hashes are in internal (wire) byte order, the reverse of their display hex; all integers
 * are big-endian so heights iterate in order. Every block is connected or disconnected with
 * ONE atomic {@link WriteBatch} (block record, height entry, UTXO changes, undo, pruning, tip)
 * through the write-ahead log, so after a crash the store holds a prefix of the chain and
 * nothing half-written. With {@code sync=false} a write survives a process kill (the WAL is in
 * the OS page cache) but the last few may be lost on power failure, still as a consistent prefix.
 *
 * <p>Thread-safe: one writer (the indexer) and any number of readers. Reads never return null.
 */
public final class IndexStore implements AutoCloseable {
    /** Undo data kept by default: deeper reorgs than this cannot be followed (Core keeps 288 in pruned mode). */
    public static final int DEFAULT_UNDO_DEPTH = 2016;

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Object writeMutex = new Object();
    private final StoreDatabase database;
    private final RocksDB db;
    private final ColumnFamilyHandle meta;
    private final ColumnFamilyHandle blocks;
    private final ColumnFamilyHandle heights;
    private final ColumnFamilyHandle utxo;
    private final ColumnFamilyHandle undo;
    private final WriteOptions syncWrite;
    private final WriteOptions asyncWrite;
    private final int undoDepth;
    private final boolean secondary;
    private final boolean migratedBlobFiles;
    private volatile Optional<ChainTip> tip;
    private boolean closed;
    private final StoreDamage damage = new StoreDamage();

    private IndexStore(Path dir, int undoDepth, Path secondaryDir) throws RocksDBException {
        this(dir, undoDepth, secondaryDir, WALRecoveryMode.PointInTimeRecovery);
    }

    private IndexStore(Path dir, int undoDepth, Path secondaryDir, WALRecoveryMode walRecovery)
            throws RocksDBException {
        this.undoDepth = undoDepth;
        this.secondary = secondaryDir != null;
        this.database = new StoreDatabase(dir, secondaryDir, walRecovery);
        this.db = database.db;
        this.meta = database.handle(Family.META);
        this.blocks = database.handle(Family.BLOCK);
        this.heights = database.handle(Family.HEIGHT);
        this.utxo = database.handle(Family.UTXO);
        this.undo = database.handle(Family.UNDO);
        this.syncWrite = database.syncWrite;
        this.asyncWrite = database.asyncWrite;
        try {
            Optional<ChainTip> metaTip;
            try {
                database.checkVersion(secondary);
                metaTip = database.readTip();
            } catch (RocksDBException e) {
                if (!StoreDamage.isDamage(e)) {
                    throw e;
                }
                // The metadata's table file is damaged: the tip is also the highest height entry
                // (both are written in every block's batch), so the index stays readable.
                damage.record(e, db, heights);
                metaTip = StoreSalvage.highestHeightEntry(db, heights);
            }
            this.migratedBlobFiles = !secondary && BlobFileMigration.migrate(dir, db, blocks, asyncWrite, syncWrite);
            this.tip = metaTip;
        } catch (RocksDBException | RuntimeException e) {
            database.close(); // a store that does not open holds no lock on the directory
            throw e;
        }
    }

    /**
     * Opens (creating if needed) the store in {@code dir}.
     *
     * @param undoDepth how many of the newest best-chain blocks keep undo data (at least 1)
     * @throws StoreException if the database cannot be opened or has another layout version
     */
    public static IndexStore open(Path dir, int undoDepth) {
        if (undoDepth < 1) {
            throw new IllegalArgumentException("undoDepth must be >= 1: " + undoDepth);
        }
        try {
            Files.createDirectories(dir);
            IndexStore store =
                    WalRecovery.open(dir, mode -> new IndexStore(dir, undoDepth, null, mode), IndexStore::tip);
            if (store.migratedBlobFiles) {
                // Reopened so that the new MANIFEST lists no blob file: a secondary that replays
                // the blob files' history from the MANIFEST sees an empty block column family.
                store.close();
                store = new IndexStore(dir, undoDepth, null);
            }
            return store;
        } catch (RocksDBException e) {
            throw new StoreException("cannot open index store in " + dir + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("cannot create data directory " + dir + ": " + e, e);
        }
    }

    public static IndexStore open(Path dir) {
        return open(dir, DEFAULT_UNDO_DEPTH);
    }

    /**
     * Opens the store in {@code dir} read-only as a RocksDB secondary instance, beside the one
     * process that indexes into it (the primary, which may run or not). It sees the primary's
     * writes as of opening and then as of each {@link #catchUp()}; {@link #connect} and {@link
     * #disconnectTip} throw. Any number of secondaries may follow one primary, each with its own
     * {@code secondaryDir} for its info log (RocksDB writes nothing into {@code dir}).
     *
     * @throws StoreException if {@code dir} holds no index or another layout version
     */
    public static IndexStore openSecondary(Path dir, Path secondaryDir) {
        if (!holdsIndex(dir)) {
            throw new StoreException("no index in " + dir + " (start the indexing server on it first)");
        }
        BlobFileMigration.refuseSecondary(dir);
        try {
            Files.createDirectories(secondaryDir);
            return new IndexStore(dir, DEFAULT_UNDO_DEPTH, secondaryDir);
        } catch (RocksDBException e) {
            throw new StoreException("cannot open index store in " + dir + " as a secondary: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("cannot create directory " + secondaryDir + ": " + e, e);
        }
    }

    /** True if {@code dir} holds an index (RocksDB's {@code CURRENT} file); {@link #open} would create one. */
    public static boolean holdsIndex(Path dir) {
        return Files.isRegularFile(dir.resolve("CURRENT"));
    }

    /** True for a read-only {@link #openSecondary secondary} instance. */
    public boolean isSecondary() {
        return secondary;
    }

    /**
     * A secondary instance reads what the primary has written since the last call (its WAL and
     * new table files) and moves {@link #tip()} to the primary's; returns the tip. Readers keep
     * working meanwhile, each read sees the index before or after the catch-up, never a mix
     * within one {@link #activeRange} (a snapshot).
     *
     * @throws IllegalStateException on a primary instance
     */
    public Optional<ChainTip> catchUp() {
        if (!secondary) {
            throw new IllegalStateException("only a secondary instance catches up");
        }
        lock.writeLock().lock();
        try {
            ensureOpen();
            db.tryCatchUpWithPrimary();
            tip = database.readTip();
            return tip;
        } catch (RocksDBException e) {
            throw new StoreException("secondary cannot catch up with the primary: " + e.getMessage(), e);
        } finally {
            lock.writeLock().unlock();
        }
    }

    public int undoDepth() {
        return undoDepth;
    }

    /** The highest indexed best-chain block; empty before genesis is indexed. */
    public Optional<ChainTip> tip() {
        return tip;
    }

    /** The genesis hash this store follows, once genesis is indexed. */
    public Optional<Sha256Hash> genesis() {
        return read(() -> Optional.ofNullable(db.get(meta, KEY_GENESIS)).map(Sha256Hash::wrapReversed));
    }

    /** The script of an unspent output, if the store has it. */
    public Optional<byte[]> unspentScript(TransactionOutPoint outpoint) {
        byte[] key = outpointKey(outpoint.hash(), outpoint.index());
        return read(() -> Optional.ofNullable(db.get(utxo, key)));
    }

    /**
     * The scripts of many outputs in one RocksDB MultiGet (one JNI call and one consistent view
     * instead of one of each per output): element {@code i} is the script of {@code outpoints[i]},
     * or null if the store does not have it.
     */
    public List<byte[]> unspentScripts(List<TransactionOutPoint> outpoints) {
        if (outpoints.isEmpty()) {
            return List.of();
        }
        List<byte[]> keys = new ArrayList<>(outpoints.size());
        for (TransactionOutPoint op : outpoints) {
            keys.add(outpointKey(op.hash(), op.index()));
        }
        List<ColumnFamilyHandle> families = java.util.Collections.nCopies(keys.size(), utxo);
        return read(() -> db.multiGetAsList(families, keys));
    }

    /** Any indexed block by hash, on the best chain or stale. */
    public Optional<StoredBlock> block(Sha256Hash hash) {
        return read(() -> Optional.ofNullable(db.get(blocks, hash.serialize())).map(v -> decodeBlock(hash, v)));
    }

    /** {@link #block}'s record undecoded, for serving its filter without copying it. */
    public Optional<BlockRecord> blockRecord(Sha256Hash hash) {
        return read(() -> Optional.ofNullable(db.get(blocks, hash.serialize())).map(v -> new BlockRecord(hash, v)));
    }

    /** {@link #blockRecord(Sha256Hash)} read into {@code buffer} where it fits ({@link RecordReads}). */
    public Optional<BlockRecord> blockRecord(Sha256Hash hash, ByteBuffer buffer) {
        return read(() -> RecordReads.blockRecord(db, blocks, database.servingRead, hash, buffer));
    }

    /** The best-chain block hash at {@code height}, as indexed. */
    public Optional<Sha256Hash> hashAt(int height) {
        if (height < 0) {
            return Optional.empty();
        }
        return read(
                () -> Optional.ofNullable(db.get(heights, heightKey(height))).map(Sha256Hash::wrapReversed));
    }

    /** True if {@code block} is on the indexed best chain. */
    public boolean isActive(StoredBlock block) {
        return hashAt(block.height()).map(block.blockHash()::equals).orElse(false);
    }

    /**
     * Best-chain blocks from {@code startHeight} up to and including {@code stopHash}, read from
     * one snapshot; empty if stopHash is not on the best chain or is below startHeight.
     */
    public Optional<List<StoredBlock>> activeRange(int startHeight, Sha256Hash stopHash) {
        return openActiveRange(startHeight, stopHash).map(cursor -> {
            try (cursor) {
                List<StoredBlock> result = new ArrayList<>(cursor.stopHeight() - startHeight + 1);
                while (cursor.hasNext()) {
                    result.add(cursor.next());
                }
                return result;
            }
        });
    }

    /**
     * The blocks of {@link #activeRange} one at a time, for answers too large to hold whole: the
     * same checks and the same one snapshot, read as {@link ActiveRangeCursor#next()} is called.
     * The cursor holds the store's read lock and the snapshot until it is closed, so it must be
     * closed, on the thread that opened it; meanwhile a secondary's {@link #catchUp()} and
     * {@link #close()} wait. Empty (and nothing held) if stopHash is not on the best chain or is
     * below startHeight.
     */
    public Optional<ActiveRangeCursor> openActiveRange(int startHeight, Sha256Hash stopHash) {
        if (startHeight < 0) {
            return Optional.empty();
        }
        lock.readLock().lock();
        Snapshot snapshot = null;
        ReadOptions options = null;
        boolean handedOut = false;
        try {
            ensureOpen();
            snapshot = snapshot();
            options = readOptions(snapshot).setFillCache(false);
            OptionalInt stop = BestChainRange.stopHeight(db, blocks, heights, options, startHeight, stopHash);
            if (stop.isEmpty()) {
                return Optional.empty();
            }
            Snapshot heldSnapshot = snapshot;
            ReadOptions heldOptions = options;
            ActiveRangeCursor cursor =
                    new BestChainRange(db, blocks, heights, options, startHeight, stop.getAsInt(), this::failed, () -> {
                        heldOptions.close();
                        release(heldSnapshot);
                        lock.readLock().unlock();
                    });
            handedOut = true;
            return Optional.of(cursor);
        } catch (RocksDBException e) {
            throw failed(e);
        } finally {
            if (!handedOut) {
                if (options != null) {
                    options.close();
                }
                release(snapshot);
                lock.readLock().unlock();
            }
        }
    }

    /**
     * Connects {@code block} on top of the tip in one atomic batch: its record, its height entry,
     * the UTXO changes, its undo data (and pruning of the undo data {@link #undoDepth()} below),
     * and the new tip.
     *
     * @param spent   outputs of earlier blocks this block spends, with their scripts (removed)
     * @param created outputs this block creates that are still unspent at its end (added)
     * @param sync    fsync the write-ahead log before returning
     * @throws IllegalStateException if the block does not extend the tip
     */
    public void connect(StoredBlock block, List<UnspentOutput> spent, List<UnspentOutput> created, boolean sync) {
        try (PendingBlock pending = prepareConnect(block, spent, created)) {
            connect(pending, sync);
        }
    }

    /**
     * Encodes what connecting {@code block} writes, without writing or checking the tip: see
     * {@link #connect(StoredBlock, List, List, boolean)} for the arguments.
     */
    public PendingBlock prepareConnect(StoredBlock block, List<UnspentOutput> spent, List<UnspentOutput> created) {
        if (secondary) {
            throw new IllegalStateException("the index store is a read-only secondary instance");
        }
        return read(() -> {
            byte[] hashKey = block.blockHash().serialize();
            WriteBatch batch = new WriteBatch();
            try {
                batch.put(blocks, hashKey, encodeBlock(block));
                batch.put(heights, heightKey(block.height()), hashKey);
                for (UnspentOutput out : spent) {
                    batch.delete(utxo, outpointKey(out.txId(), out.index()));
                }
                for (UnspentOutput out : created) {
                    batch.put(utxo, outpointKey(out.txId(), out.index()), out.scriptUnsafe());
                }
                batch.put(undo, hashKey, encodeUndo(spent, created));
            } catch (RocksDBException | RuntimeException e) {
                batch.close();
                throw e;
            }
            return new PendingBlock(block, batch);
        });
    }

    /**
     * Connects a block encoded by {@link #prepareConnect} on top of the tip, adding the undo
     * pruning and the new tip to its batch, in one atomic write. The pending block is spent:
     * close it afterwards either way.
     *
     * @throws IllegalStateException if the block does not extend the tip
     */
    public void connect(PendingBlock pending, boolean sync) {
        StoredBlock block = pending.block;
        write(() -> {
            Optional<ChainTip> current = tip;
            int expectedHeight = current.map(t -> t.height() + 1).orElse(0);
            if (block.height() != expectedHeight
                    || (current.isPresent()
                            && !block.prevBlockHash().equals(current.get().hash()))) {
                throw new IllegalStateException(
                        "block " + block.blockHash() + " at height " + block.height() + " does not extend the tip "
                                + current.map(ChainTip::toString).orElse("(empty)"));
            }
            byte[] hashKey = block.blockHash().serialize();
            WriteBatch batch = pending.batch;
            if (current.isEmpty()) {
                batch.put(meta, KEY_GENESIS, hashKey);
            }
            int pruneHeight = block.height() - undoDepth;
            if (pruneHeight >= 0) {
                byte[] pruneHash = db.get(heights, heightKey(pruneHeight));
                if (pruneHash != null) {
                    batch.delete(undo, pruneHash);
                }
            }
            batch.put(meta, KEY_TIP, tipValue(block.height(), hashKey));
            db.write(sync ? syncWrite : asyncWrite, batch);
            tip = Optional.of(new ChainTip(block.height(), block.blockHash()));
            return null;
        });
    }

    /**
     * Disconnects the tip block in one atomic batch: restores the outputs it spent, deletes the
     * ones it created, removes its height entry and undo data, and moves the tip to its parent.
     * The block's record stays, so its filter remains retrievable by hash (stale).
     *
     * @return the disconnected block
     * @throws IllegalStateException if the store is empty
     * @throws StoreException if the tip has no undo data (deeper than the undo depth)
     */
    public StoredBlock disconnectTip(boolean sync) {
        return write(() -> {
            ChainTip current =
                    tip.orElseThrow(() -> new IllegalStateException("nothing to disconnect: store is empty"));
            byte[] hashKey = current.hash().serialize();
            byte[] undoValue = db.get(undo, hashKey);
            if (undoValue == null) {
                throw new StoreException("cannot disconnect block " + current.hash() + " at height " + current.height()
                        + ": no undo data (reorg deeper than the undo depth " + undoDepth + "?)");
            }
            byte[] recordValue = db.get(blocks, hashKey);
            if (recordValue == null) {
                throw new StoreException("store corrupt: no record for tip " + current.hash());
            }
            StoredBlock block = decodeBlock(current.hash(), recordValue);
            RecordCodec.Undo undoRecord = RecordCodec.decodeUndo(current.hash(), undoValue);
            try (WriteBatch batch = new WriteBatch()) {
                for (int i = 0; i < undoRecord.spentKeys().size(); i++) {
                    batch.put(
                            utxo,
                            undoRecord.spentKeys().get(i),
                            undoRecord.spentScripts().get(i));
                }
                for (byte[] key : undoRecord.createdKeys()) {
                    batch.delete(utxo, key);
                }
                batch.delete(undo, hashKey);
                batch.delete(heights, heightKey(current.height()));
                if (current.height() == 0) {
                    batch.delete(meta, KEY_TIP);
                } else {
                    batch.put(
                            meta,
                            KEY_TIP,
                            tipValue(current.height() - 1, block.prevBlockHash().serialize()));
                }
                db.write(sync ? syncWrite : asyncWrite, batch);
            }
            tip = current.height() == 0
                    ? Optional.empty()
                    : Optional.of(new ChainTip(current.height() - 1, block.prevBlockHash()));
            return block;
        });
    }

    /** Whether undo data for the block is still kept. */
    public boolean hasUndo(Sha256Hash blockHash) {
        return read(() -> db.get(undo, blockHash.serialize()) != null);
    }

    /** The column families, for {@link StoreInspection#contentDigest(Set)}. */
    public enum Family {
        META,
        BLOCK,
        HEIGHT,
        UTXO,
        UNDO
    }

    /** Whole-store reads for checks and tests (a digest of the content). */
    public StoreInspection inspection() {
        return new StoreInspection(this);
    }

    /** The database, for the verifier and repair in this package. */
    RocksDB db() {
        return db;
    }

    ColumnFamilyHandle handle(Family family) {
        return database.handle(family);
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            database.close();
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ---- plumbing

    @FunctionalInterface
    interface DbAction<T> {
        T run() throws RocksDBException;
    }

    <T> T read(DbAction<T> action) {
        lock.readLock().lock();
        try {
            ensureOpen();
            return action.run();
        } catch (RocksDBException e) {
            throw failed(e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** A failed read as a StoreException; damage is recorded and named (file, family, heights). */
    private StoreException failed(RocksDBException e) {
        return damage.failure(e, db, heights);
    }

    /** The damage reads have found since the store was opened. */
    public StoreDamage damage() {
        return damage;
    }

    // Writes take the read lock too (the lock only keeps close() out) and are serialised among
    // themselves, so the tip check and the batch are one step.
    /**
     * A snapshot for a multi-key read on a primary. A secondary gets none: RocksDB's iterators
     * over a secondary's snapshot do not see what catch-ups replayed (measured: they return other
     * content than the primary's), and a secondary changes only in {@link #catchUp()}, under the
     * write lock, so a read under the read lock is consistent without one.
     */
    Snapshot snapshot() {
        return secondary ? null : db.getSnapshot();
    }

    static ReadOptions readOptions(Snapshot snapshot) {
        ReadOptions options = new ReadOptions();
        return snapshot == null ? options : options.setSnapshot(snapshot);
    }

    void release(Snapshot snapshot) {
        if (snapshot != null) {
            db.releaseSnapshot(snapshot);
        }
    }

    <T> T write(DbAction<T> action) {
        if (secondary) {
            throw new IllegalStateException("the index store is a read-only secondary instance");
        }
        synchronized (writeMutex) {
            return read(action);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreException("index store is closed");
        }
    }
}
