package org.blockfilter.server.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * Filters of mainnet size (19 KB) that the primary has flushed to disk, read by a read-only
 * secondary instance ({@code --read-only-secondary}, {@code export}). Earlier versions kept
 * filters in RocksDB blob files, which secondaries cannot read: the read crashed the JVM with
 * SIGSEGV in {@code rocksdb::GetSstInternalUniqueId} (facebook/rocksdb#13248, #13296). The
 * secondary reads run in a child JVM so that such a crash fails the test instead of killing
 * the test run.
 */
class IndexStoreBlobFilesTest {
    private static final List<String> FAMILIES = List.of("default", "block", "height", "utxo", "undo");
    private static final int BLOCKS = 20;

    @TempDir
    Path dir;

    @Test
    void aSecondaryReadsFlushedMainnetSizeFilters() throws Exception {
        Path index = dir.resolve("index");
        Map<Integer, byte[]> filters = writeIndex(index);
        try (IndexStore reopened = IndexStore.open(index)) {
            // recovering the write-ahead log flushed it: the filters are in table files now
            assertTrue(reopened.tip().isPresent());
        }
        assertTrue(blobFiles(index).isEmpty(), "filters went to blob files: " + blobFiles(index));
        assertSecondaryReads(index, filters);
    }

    @Test
    void anIndexWithBlobFilesFromAnEarlierVersionIsRefusedBySecondariesAndMovedInlineByThePrimary() throws Exception {
        Path index = dir.resolve("index");
        Map<Integer, byte[]> filters = writeIndex(index);
        moveFiltersToBlobFiles(index);
        assertFalse(blobFiles(index).isEmpty(), "the earlier version's layout was not reproduced");

        // tried: a secondary on the old layout; it must refuse with a reason, not crash
        StoreException refused =
                assertThrows(StoreException.class, () -> IndexStore.openSecondary(index, dir.resolve("s1")));
        assertTrue(refused.getMessage().contains("blob files"), refused.getMessage());
        assertTrue(refused.getMessage().contains("start the indexing server"), refused.getMessage());

        try (IndexStore primary = IndexStore.open(index)) {
            for (var e : filters.entrySet()) {
                Sha256Hash hash = primary.hashAt(e.getKey()).orElseThrow();
                assertArrayEquals(
                        e.getValue(), primary.block(hash).orElseThrow().filter());
            }
        }
        assertEquals(List.of(), blobFiles(index));
        assertSecondaryReads(index, filters);
    }

    private static Map<Integer, byte[]> writeIndex(Path index) {
        Map<Integer, byte[]> filters = new HashMap<>();
        Random random = new Random(1);
        try (IndexStore primary = IndexStore.open(index)) {
            Sha256Hash prev = Sha256Hash.ZERO_HASH;
            for (int height = 0; height < BLOCKS; height++) {
                byte[] header = ByteBuffer.allocate(StoredBlock.HEADER_SIZE)
                        .putInt(1)
                        .put(prev.serialize())
                        .putInt(76, height)
                        .array();
                Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
                byte[] filter = new byte[19_000];
                random.nextBytes(filter);
                filters.put(height, filter);
                Sha256Hash filterHash = Sha256Hash.twiceOf(filter);
                primary.connect(
                        new StoredBlock(hash, height, header, filterHash, filterHash, Sha256Hash.ZERO_HASH, filter),
                        List.of(),
                        List.of(),
                        true);
                prev = hash;
            }
        }
        return filters;
    }

    /** Rewrites every block record with blob files on, as the earlier version stored them. */
    private static void moveFiltersToBlobFiles(Path index) throws Exception {
        RocksDB.loadLibrary();
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        List<AutoCloseable> resources = new ArrayList<>();
        for (String name : FAMILIES) {
            ColumnFamilyOptions options = new ColumnFamilyOptions();
            if (name.equals("block")) {
                options.setEnableBlobFiles(true).setMinBlobSize(512);
            }
            resources.add(options);
            descriptors.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.US_ASCII), options));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
                RocksDB db = RocksDB.open(options, index.toString(), descriptors, handles);
                FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            ColumnFamilyHandle blocks = handles.get(1);
            List<byte[][]> records = new ArrayList<>();
            try (RocksIterator it = db.newIterator(blocks)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    records.add(new byte[][] {it.key(), it.value()});
                }
            }
            assertEquals(BLOCKS, records.size());
            for (byte[][] r : records) {
                db.put(blocks, r[0], r[1]);
            }
            db.flush(flush, blocks);
            handles.forEach(ColumnFamilyHandle::close);
        } finally {
            for (AutoCloseable r : resources) {
                r.close();
            }
        }
    }

    private static List<Path> blobFiles(Path index) throws IOException {
        try (Stream<Path> files = Files.list(index)) {
            return files.filter(p -> p.toString().endsWith(".blob")).toList();
        }
    }

    private void assertSecondaryReads(Path index, Map<Integer, byte[]> filters) throws Exception {
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        SecondaryReadProbe.class.getName(),
                        index.toString(),
                        dir.resolve("secondary").toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "secondary read did not finish");
        String output = Files.readString(log);
        assertEquals(0, child.exitValue(), "the secondary's JVM failed:\n" + output);
        int digest = 0;
        for (int h = 0; h < BLOCKS; h++) {
            digest = 31 * digest + java.util.Arrays.hashCode(filters.get(h));
        }
        assertTrue(
                output.contains("read " + BLOCKS + " filters, digest " + digest),
                "the secondary read other filters:\n" + output);
    }

    /** Runs in the child JVM: opens the index as a secondary and reads every filter. */
    static final class SecondaryReadProbe {
        private SecondaryReadProbe() {}

        public static void main(String[] args) {
            try (IndexStore store = IndexStore.openSecondary(Path.of(args[0]), Path.of(args[1]))) {
                int height = store.tip().orElseThrow().height();
                int digest = 0;
                for (int h = 0; h <= height; h++) {
                    byte[] filter = store.block(store.hashAt(h).orElseThrow())
                            .orElseThrow()
                            .filter();
                    digest = 31 * digest + java.util.Arrays.hashCode(filter);
                }
                System.out.println("read " + (height + 1) + " filters, digest " + digest);
            }
        }
    }
}
