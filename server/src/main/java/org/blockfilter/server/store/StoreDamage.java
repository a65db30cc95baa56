package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Damage found while reading the index: a RocksDB checksum (or other corruption) failure, mapped to
 * the table file it is in, that file's column family and the heights it holds. Each damaged file
 * is logged once at ERROR; every read that hits damage is counted. Thread-safe.
 */
public final class StoreDamage {
    private static final Logger LOG = LoggerFactory.getLogger(StoreDamage.class);
    private static final Pattern FILE = Pattern.compile("(\\S*?(\\d+)\\.(sst|log|blob))");

    /**
     * One damaged file.
     *
     * @param family     the column family ({@code block}, {@code height}, {@code utxo}, {@code undo},
     *                   {@code default}); {@code unknown} if RocksDB did not name a live table file
     * @param file       the file's path as RocksDB named it
     * @param fromHeight the lowest best-chain height whose records the file holds, -1 if not by height
     * @param toHeight   the highest, -1 if not by height
     * @param error      RocksDB's message
     */
    public record Damaged(String family, String file, int fromHeight, int toHeight, String error) {
        /** {@code heights 12..240}, or what the family holds when it is not kept by height. */
        public String heights() {
            if (fromHeight >= 0) {
                return fromHeight + ".." + toHeight;
            }
            return switch (family) {
                case "utxo" -> "unspent-output map (any height)";
                case "default" -> "metadata (tip, genesis, version)";
                default -> "unknown";
            };
        }
    }

    private final Map<String, Damaged> byFile = new ConcurrentHashMap<>();
    private final LongAdder reads = new LongAdder();

    /**
     * A failed read as a {@link StoreException}: damage (see {@link #isDamage}) is recorded and
     * named (file, family, heights); any other failure is a plain read failure.
     */
    StoreException failure(RocksDBException e, RocksDB db, ColumnFamilyHandle heights) {
        if (!isDamage(e)) {
            return new StoreException("index store read failed: " + e.getMessage(), e);
        }
        Damaged d = record(e, db, heights);
        return new StoreException(
                "index damaged: " + d.family() + " file " + d.file() + ", heights " + d.heights() + ": "
                        + e.getMessage() + " (see `verify` and `repair` in docs/storage.md)",
                e,
                true);
    }

    /** True if {@code e} reports damage (corruption, a checksum mismatch), not another failure. */
    public static boolean isDamage(RocksDBException e) {
        Status s = e.getStatus();
        if (s != null && s.getCode() == Status.Code.Corruption) {
            return true;
        }
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return m.contains("corruption") || m.contains("checksum mismatch");
    }

    /** Records a damaged read and returns the damaged file it hit (logged at ERROR the first time). */
    Damaged record(RocksDBException e, RocksDB db, ColumnFamilyHandle heights) {
        reads.increment();
        String message = String.valueOf(e.getMessage());
        Matcher m = FILE.matcher(message);
        String file = m.find() ? m.group(1) : "unknown";
        Damaged known = byFile.get(file);
        if (known != null) {
            return known;
        }
        Damaged d = locate(file, message, db, heights);
        if (byFile.putIfAbsent(file, d) == null) {
            LOG.error(
                    "event=store_damaged family={} file={} heights=\"{}\" error=\"{}\"",
                    d.family(),
                    d.file(),
                    d.heights(),
                    d.error());
        }
        return byFile.get(file);
    }

    /** The damaged files found so far, in no particular order. */
    public List<Damaged> files() {
        return List.copyOf(byFile.values());
    }

    /** Reads that failed on damage since the store was opened. */
    public long damagedReads() {
        return reads.sum();
    }

    /** Where a named table file sits: its family and the heights of its records. */
    static Damaged locate(String file, String error, RocksDB db, ColumnFamilyHandle heights) {
        String name = file.substring(file.lastIndexOf('/') + 1);
        for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
            if (!f.fileName().endsWith("/" + name) && !f.fileName().equals(name)) {
                continue;
            }
            String family = new String(f.columnFamilyName(), StandardCharsets.US_ASCII);
            int[] range = heightRange(family, f.smallestKey(), f.largestKey(), db, heights);
            return new Damaged(family, file, range[0], range[1], error);
        }
        return new Damaged("unknown", file, -1, -1, error);
    }

    /**
     * The best-chain heights of the keys from smallest to largest: height keys are heights; block
     * and undo keys are block hashes, whose heights are found in the height family (read whole,
     * once per damaged file). {-1, -1} for the other families or when nothing matches.
     */
    static int[] heightRange(String family, byte[] smallest, byte[] largest, RocksDB db, ColumnFamilyHandle heights) {
        if (family.equals("height") && smallest.length == 4 && largest.length == 4) {
            return new int[] {
                ByteBuffer.wrap(smallest).getInt(), ByteBuffer.wrap(largest).getInt()
            };
        }
        if (!family.equals("block") && !family.equals("undo")) {
            return new int[] {-1, -1};
        }
        int lo = -1;
        int hi = -1;
        try (RocksIterator it = db.newIterator(heights)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] hash = it.value();
                if (Arrays.compareUnsigned(hash, smallest) >= 0 && Arrays.compareUnsigned(hash, largest) <= 0) {
                    int h = ByteBuffer.wrap(it.key()).getInt();
                    lo = lo < 0 ? h : Math.min(lo, h);
                    hi = Math.max(hi, h);
                }
            }
        }
        return new int[] {lo, hi};
    }
}
