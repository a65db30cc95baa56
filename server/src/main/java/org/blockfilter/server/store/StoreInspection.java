package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * Whole-store reads for checks and the crash and damage tests, apart from the indexer's write path
 * and the serving reads: a digest of the content. Obtained from
 * {@link IndexStore#inspection()}; thread-safe as the store is.
 */
public final class StoreInspection {
    private final IndexStore store;

    StoreInspection(IndexStore store) {
        this.store = store;
    }

    /**
     * SHA-256 over every key and value of every column family, in order: two stores with the
     * same digest hold byte-identical content (what the crash tests compare).
     */
    public Sha256Hash contentDigest() {
        return contentDigest(EnumSet.allOf(IndexStore.Family.class));
    }

    /** {@link #contentDigest()} restricted to some column families. */
    public Sha256Hash contentDigest(Set<IndexStore.Family> families) {
        return store.read(() -> {
            MessageDigest digest = sha256();
            Snapshot snapshot = store.snapshot();
            try (ReadOptions options = IndexStore.readOptions(snapshot)) {
                for (IndexStore.Family family : families) {
                    ColumnFamilyHandle cf = store.handle(family);
                    digest.update(cf.getName());
                    try (RocksIterator it = store.db().newIterator(cf, options)) {
                        for (it.seekToFirst(); it.isValid(); it.next()) {
                            byte[] k = it.key();
                            byte[] v = it.value();
                            digest.update(ByteBuffer.allocate(8)
                                    .putInt(k.length)
                                    .putInt(v.length)
                                    .array());
                            digest.update(k);
                            digest.update(v);
                        }
                    }
                }
            } finally {
                store.release(snapshot);
            }
            return Sha256Hash.wrap(digest.digest());
        });
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
