package org.blockfilter.server.store;

import static org.blockfilter.server.store.RecordCodec.heightKey;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileReader;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Copies what is sound of a damaged index into a new one, so that no damaged table file is carried
 * over (RocksDB would hit it again in every compaction): the block records outside the damaged
 * files (each checked: its header hashes to its key), the height entries below the first damaged
 * height, and, when the unspent-output map and the undo data are sound, those too, rewound with
 * the undo data to the block below the first damaged height. The caller then indexes the rest
 * from the node. Stateless.
 */
public final class StoreSalvage {

    private StoreSalvage() {}

    /** The highest height entry as a tip; empty if there is none. */
    static Optional<ChainTip> highestHeightEntry(RocksDB db, ColumnFamilyHandle heights) throws RocksDBException {
        try (RocksIterator it = db.newIterator(heights)) {
            it.seekToLast();
            if (!it.isValid()) {
                it.status();
                return Optional.empty();
            }
            return Optional.of(new ChainTip(ByteBuffer.wrap(it.key()).getInt(), Sha256Hash.wrapReversed(it.value())));
        }
    }

    /**
     * Writes the salvaged index into {@code to} (a new directory) and returns it open.
     *
     * @param indexed       the block hashes of the damaged index's best chain, heights 0..tip
     * @param keepBelow     the first height to index again: heights below it are kept
     * @param keepChainState copy the unspent-output map and undo data and rewind them to
     *                      keepBelow - 1; false starts them empty (keepBelow must then be 0)
     */
    public static IndexStore salvage(
            IndexStore from, Path to, List<Sha256Hash> indexed, int keepBelow, boolean keepChainState) {
        if (!keepChainState && keepBelow != 0) {
            throw new IllegalArgumentException("without the chain state only a re-index from 0 is possible");
        }
        IndexStore out = IndexStore.open(to, from.undoDepth());
        try (WriteOptions w = new WriteOptions()) {
            RocksDB src = from.db();
            RocksDB dst = out.db();
            copyBlockRecords(from, out, w);
            if (keepChainState) {
                copyAll(src, from.handle(IndexStore.Family.UTXO), dst, out.handle(IndexStore.Family.UTXO), w);
                copyAll(src, from.handle(IndexStore.Family.UNDO), dst, out.handle(IndexStore.Family.UNDO), w);
                for (int h = indexed.size() - 1; h >= keepBelow; h--) {
                    rewind(from, out, indexed.get(h), w);
                }
                try (WriteBatch batch = new WriteBatch()) {
                    for (int h = 0; h < keepBelow; h++) {
                        batch.put(
                                out.handle(IndexStore.Family.HEIGHT),
                                heightKey(h),
                                indexed.get(h).serialize());
                    }
                    if (keepBelow > 0) {
                        batch.put(
                                out.handle(IndexStore.Family.META),
                                RecordCodec.KEY_GENESIS,
                                indexed.get(0).serialize());
                        batch.put(
                                out.handle(IndexStore.Family.META),
                                RecordCodec.KEY_TIP,
                                RecordCodec.tipValue(
                                        keepBelow - 1,
                                        indexed.get(keepBelow - 1).serialize()));
                    }
                    dst.write(w, batch);
                }
            }
            dst.flushWal(true);
        } catch (RocksDBException e) {
            out.close();
            throw new StoreException("cannot salvage the index into " + to + ": " + e.getMessage(), e);
        }
        out.close();
        return IndexStore.open(to, from.undoDepth());
    }

    /** Undoes one block's UTXO changes in the new store, and drops its undo record there. */
    private static void rewind(IndexStore from, IndexStore out, Sha256Hash hash, WriteOptions w)
            throws RocksDBException {
        byte[] value = from.db().get(from.handle(IndexStore.Family.UNDO), hash.serialize());
        if (value == null) {
            throw new StoreException("no undo data for block " + hash + ": the damage is deeper than the undo depth");
        }
        RecordCodec.Undo undo = RecordCodec.decodeUndo(hash, value);
        ColumnFamilyHandle utxo = out.handle(IndexStore.Family.UTXO);
        try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i < undo.spentKeys().size(); i++) {
                batch.put(utxo, undo.spentKeys().get(i), undo.spentScripts().get(i));
            }
            for (byte[] key : undo.createdKeys()) {
                batch.delete(utxo, key);
            }
            batch.delete(out.handle(IndexStore.Family.UNDO), hash.serialize());
            out.db().write(w, batch);
        }
    }

    private static void copyAll(
            RocksDB src, ColumnFamilyHandle from, RocksDB dst, ColumnFamilyHandle to, WriteOptions w)
            throws RocksDBException {
        try (RocksIterator it = src.newIterator(from);
                WriteBatch batch = new WriteBatch()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                batch.put(to, it.key(), it.value());
                if (batch.getDataSize() > 16 << 20) {
                    dst.write(w, batch);
                    batch.clear();
                }
            }
            it.status();
            dst.write(w, batch);
        }
    }

    /**
     * Every block record outside the damaged table files of the block family. The iterator reads
     * without checksum verification (else the damaged block would stop it), so each record is
     * kept only if its key lies outside every damaged file's key range and its header hashes to it.
     */
    private static void copyBlockRecords(IndexStore from, IndexStore out, WriteOptions w) throws RocksDBException {
        List<byte[][]> damaged = damagedRanges(from.db(), "block");
        ColumnFamilyHandle dstBlocks = out.handle(IndexStore.Family.BLOCK);
        try (ReadOptions ro = new ReadOptions().setVerifyChecksums(false).setFillCache(false);
                RocksIterator it = from.db().newIterator(from.handle(IndexStore.Family.BLOCK), ro);
                WriteBatch batch = new WriteBatch()) {
            it.seekToFirst();
            while (it.isValid()) {
                byte[] key = it.key();
                byte[][] skip = rangeOf(damaged, key);
                if (skip != null) {
                    byte[] after = Arrays.copyOf(skip[1], skip[1].length + 1); // the next key after the range
                    it.seek(after);
                    continue;
                }
                byte[] value = it.value();
                if (soundRecord(key, value)) {
                    batch.put(dstBlocks, key, value);
                }
                if (batch.getDataSize() > 16 << 20) {
                    out.db().write(w, batch);
                    batch.clear();
                }
                it.next();
            }
            out.db().write(w, batch);
        }
    }

    private static boolean soundRecord(byte[] key, byte[] value) {
        try {
            Sha256Hash hash = Sha256Hash.wrapReversed(key);
            StoredBlock b = RecordCodec.decodeBlock(hash, value);
            return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(b.header())).equals(hash);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static byte[][] rangeOf(List<byte[][]> ranges, byte[] key) {
        for (byte[][] r : ranges) {
            if (Arrays.compareUnsigned(key, r[0]) >= 0 && Arrays.compareUnsigned(key, r[1]) <= 0) {
                return r;
            }
        }
        return null;
    }

    /** {smallest, largest} key of each live table file of the family whose checksums fail. */
    static List<byte[][]> damagedRanges(RocksDB db, String family) {
        List<byte[][]> out = new ArrayList<>();
        try (Options options = new Options()) {
            for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
                if (!new String(f.columnFamilyName(), StandardCharsets.US_ASCII).equals(family)) {
                    continue;
                }
                try (SstFileReader reader = new SstFileReader(options)) {
                    reader.open(f.path() + f.fileName());
                    reader.verifyChecksum();
                } catch (RocksDBException e) {
                    out.add(new byte[][] {f.smallestKey(), f.largestKey()});
                }
            }
        }
        return out;
    }
}
