package org.blockfilter.regtest.mainnet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Prints the on-disk size and estimated key count of every column family of a RocksDB
 * directory, one line each: {@code cf=<name> sst_bytes=<n> blob_bytes=<n> keys=<n>}. The
 * benchmark harness uses it to split an index's disk use into filters (column family
 * {@code block}), unspent outputs ({@code utxo}) and undo data ({@code undo}). Knows nothing of
 * the server's key layout.
 *
 * <p>A server that exits leaves its last writes in the write-ahead log, not in table files; with
 * {@code --flush} the directory is opened for writing (no server may have it open) and every
 * column family is flushed first, with the table settings the index uses (LZ4; the
 * {@code block} family uncompressed with values of 512 bytes or more in blob files, as
 * {@code IndexStore} configures them), so the sizes are those of settled data.
 */
public final class RocksDbUsageMain {
    private RocksDbUsageMain() {}

    public static void main(String[] args) throws RocksDBException {
        boolean flush = args.length == 2 && args[0].equals("--flush");
        if (args.length != 1 && !flush) {
            System.err.println("usage: RocksDbUsageMain [--flush] <rocksdb directory>");
            System.exit(2);
        }
        RocksDB.loadLibrary();
        String dir = args[args.length - 1];
        List<byte[]> names;
        try (Options options = new Options()) {
            names = RocksDB.listColumnFamilies(options, dir);
        }
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        for (byte[] name : names) {
            ColumnFamilyOptions cf = new ColumnFamilyOptions();
            if (new String(name, StandardCharsets.UTF_8).equals("block")) {
                cf.setCompressionType(CompressionType.NO_COMPRESSION)
                        .setEnableBlobFiles(true)
                        .setMinBlobSize(512);
            } else {
                cf.setCompressionType(CompressionType.LZ4_COMPRESSION);
            }
            descriptors.add(new ColumnFamilyDescriptor(name, cf));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
                RocksDB db = flush
                        ? RocksDB.open(options, dir, descriptors, handles)
                        : RocksDB.openReadOnly(options, dir, descriptors, handles)) {
            if (flush) {
                try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
                    db.flush(f, handles);
                }
            }
            for (int i = 0; i < handles.size(); i++) {
                ColumnFamilyHandle h = handles.get(i);
                System.out.printf(
                        Locale.ROOT,
                        "cf=%s sst_bytes=%d blob_bytes=%d keys=%d%n",
                        new String(names.get(i), StandardCharsets.UTF_8),
                        property(db, h, "rocksdb.total-sst-files-size"),
                        property(db, h, "rocksdb.total-blob-file-size"),
                        property(db, h, "rocksdb.estimate-num-keys"));
            }
            handles.forEach(ColumnFamilyHandle::close);
        } finally {
            descriptors.forEach(d -> d.getOptions().close());
        }
    }

    private static long property(RocksDB db, ColumnFamilyHandle h, String name) {
        try {
            return db.getLongProperty(h, name);
        } catch (RocksDBException e) {
            return -1;
        }
    }
}
