package org.blockfilter.server;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;

/**
 * Damages an index's files the way disks do, with RocksDB's own API only (no server code): flushes
 * every column family into table files, finds a family's table files, flips one byte.
 */
final class IndexFiles {
    private IndexFiles() {}

    /** Writes every column family's memtable to table files (the index must be closed). */
    static void flush(Path dir) throws RocksDBException {
        RocksDB.loadLibrary();
        List<byte[]> names;
        try (Options o = new Options()) {
            names = RocksDB.listColumnFamilies(o, dir.toString());
        }
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        for (byte[] n : names) {
            descriptors.add(new ColumnFamilyDescriptor(n));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
                RocksDB db = RocksDB.open(options, dir.toString(), descriptors, handles);
                FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f, handles);
            handles.forEach(ColumnFamilyHandle::close);
        }
    }

    /** The table files of one column family. */
    static List<Path> tables(Path dir, String family) throws IOException, RocksDBException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir);
                Options o = new Options()) {
            for (Path p :
                    files.filter(f -> f.toString().endsWith(".sst")).sorted().toList()) {
                try (SstFileReader r = new SstFileReader(o)) {
                    r.open(p.toString());
                    if (new String(r.getTableProperties().getColumnFamilyName(), StandardCharsets.US_ASCII)
                            .equals(family)) {
                        out.add(p);
                    }
                }
            }
        }
        return out;
    }

    /** The newest write-ahead log file. */
    static Path newestWal(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".log"))
                    .max(Comparator.comparing(Path::toString))
                    .orElseThrow(() -> new IOException("no write-ahead log in " + dir));
        }
    }

    /** Inverts the bits of the byte at {@code offset}. */
    static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(~b & 0xff);
        }
    }
}
