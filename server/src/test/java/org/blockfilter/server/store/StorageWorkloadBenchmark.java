package org.blockfilter.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The storage benchmark behind docs/storage.md: the indexer's write pattern replayed against
 * RocksDB, SQLite and H2. Per block: look up the scripts of ~{@code spends} random unspent
 * outpoints (random reads), then commit ONE transaction that deletes them, inserts
 * {@code outputs} new outpoint -> script rows, appends a ~2 KB filter record by hash, a
 * height -> hash row, an undo record and the tip. After the load: random point lookups.
 *
 * <p>Each engine gets its crash-safe-against-process-kill setting without an fsync per block
 * (RocksDB WAL with sync=false, SQLite WAL + synchronous=NORMAL, H2 MVStore default), which is
 * how the indexer runs while catching up. A harness, not a unit test: run it by hand with
 * {@code java -cp ... org.blockfilter.server.store.StorageWorkloadBenchmark [outpoints] [engines]}
 * (see docs/benchmarks.md).
 */
public final class StorageWorkloadBenchmark {
    private static final int OUTPUTS_PER_BLOCK = 3000;
    private static final int SPENDS_PER_BLOCK = 1500;
    private static final int FILTER_BYTES = 2048;
    private static final int LOOKUPS = 200_000;

    interface Engine extends AutoCloseable {
        String name();

        byte[] getScript(byte[] outpoint) throws Exception;

        void commitBlock(int height, byte[] hash, byte[] record, List<byte[][]> adds, List<byte[]> deletes, byte[] undo)
                throws Exception;

        @Override
        void close() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        List<String> engines =
                args.length > 1 ? List.of(args[1].split(",")) : List.of("rocksdb", "indexstore", "sqlite", "h2");
        System.out.printf(
                "workload: %,d outpoints inserted in blocks of %d, %d spends per block, %d B filter record, %,d random lookups%n",
                total, OUTPUTS_PER_BLOCK, SPENDS_PER_BLOCK, FILTER_BYTES, LOOKUPS);
        for (String name : engines) {
            Path dir = Files.createTempDirectory("storage-bench-" + name);
            try {
                run(name, dir, total);
            } finally {
                deleteTree(dir);
            }
        }
    }

    private static void run(String name, Path dir, int total) throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        // Live outpoints, for choosing spends and lookups; swap-remove keeps it O(1).
        List<byte[]> live = new ArrayList<>();
        int blocks = total / OUTPUTS_PER_BLOCK;
        long reads = 0;
        long start = System.nanoTime();
        try (Engine engine = open(name, dir)) {
            for (int height = 0; height < blocks; height++) {
                List<byte[]> deletes = new ArrayList<>();
                ByteBuffer undo = ByteBuffer.allocate(SPENDS_PER_BLOCK * (36 + 2 + 40));
                int spends = Math.min(SPENDS_PER_BLOCK, live.size() / 2);
                for (int i = 0; i < spends; i++) {
                    int idx = random.nextInt(live.size());
                    byte[] key = live.get(idx);
                    live.set(idx, live.get(live.size() - 1));
                    live.remove(live.size() - 1);
                    byte[] script = engine.getScript(key);
                    reads++;
                    if (script == null) {
                        throw new IllegalStateException(name + ": lost outpoint at height " + height);
                    }
                    deletes.add(key);
                    undo.put(key).putShort((short) script.length).put(script);
                }
                List<byte[][]> adds = new ArrayList<>(OUTPUTS_PER_BLOCK);
                for (int i = 0; i < OUTPUTS_PER_BLOCK; i++) {
                    byte[] key = randomBytes(random, 36);
                    byte[] script = randomBytes(random, 22 + random.nextInt(13));
                    adds.add(new byte[][] {key, script});
                    live.add(key);
                }
                byte[] record = randomBytes(random, 80 + 3 * 32 + FILTER_BYTES);
                byte[] undoBytes = new byte[undo.position()];
                undo.flip().get(undoBytes);
                engine.commitBlock(height, randomBytes(random, 32), record, adds, deletes, undoBytes);
            }
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            long lookupStart = System.nanoTime();
            for (int i = 0; i < LOOKUPS; i++) {
                if (engine.getScript(live.get(random.nextInt(live.size()))) == null) {
                    throw new IllegalStateException(name + ": lookup missed");
                }
            }
            double lookupSeconds = (System.nanoTime() - lookupStart) / 1e9;
            engine.close();
            System.out.printf(
                    "%-8s load: %6.1f s  %7.1f blocks/s  %,9.0f outputs/s (+%,d reads, %,d deletes)  "
                            + "lookups: %,9.0f /s  live: %,d  disk: %,d KB%n",
                    name,
                    loadSeconds,
                    blocks / loadSeconds,
                    blocks * (double) OUTPUTS_PER_BLOCK / loadSeconds,
                    reads,
                    reads,
                    LOOKUPS / lookupSeconds,
                    live.size(),
                    du(dir) / 1024);
        }
    }

    private static Engine open(String name, Path dir) throws Exception {
        return switch (name) {
            case "rocksdb" -> new Rocks(dir);
            case "indexstore" -> new Ours(dir);
            case "sqlite" ->
                new Jdbc("sqlite", DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("db.sqlite")), true);
            case "h2" -> new Jdbc("h2", DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("db")), false);
            default -> throw new IllegalArgumentException("unknown engine " + name);
        };
    }

    private static final class Rocks implements Engine {
        static {
            RocksDB.loadLibrary();
        }

        private final List<ColumnFamilyHandle> handles = new ArrayList<>();
        private final DBOptions options;
        private final ColumnFamilyOptions cfOptions;
        private final RocksDB db;
        private final WriteOptions write = new WriteOptions().setSync(false);

        Rocks(Path dir) throws RocksDBException {
            options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
            cfOptions = new ColumnFamilyOptions();
            List<ColumnFamilyDescriptor> cfs = new ArrayList<>();
            for (String cf : List.of("default", "block", "height", "utxo", "undo")) {
                cfs.add(new ColumnFamilyDescriptor(cf.getBytes(), cfOptions));
            }
            db = RocksDB.open(options, dir.toString(), cfs, handles);
        }

        @Override
        public String name() {
            return "rocksdb";
        }

        @Override
        public byte[] getScript(byte[] outpoint) throws RocksDBException {
            return db.get(handles.get(3), outpoint);
        }

        @Override
        public void commitBlock(
                int height, byte[] hash, byte[] record, List<byte[][]> adds, List<byte[]> deletes, byte[] undo)
                throws RocksDBException {
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(handles.get(1), hash, record);
                batch.put(handles.get(2), ByteBuffer.allocate(4).putInt(height).array(), hash);
                for (byte[] key : deletes) {
                    batch.delete(handles.get(3), key);
                }
                for (byte[][] add : adds) {
                    batch.put(handles.get(3), add[0], add[1]);
                }
                batch.put(handles.get(4), hash, undo);
                batch.put(handles.get(0), "tip".getBytes(), hash);
                db.write(write, batch);
            }
        }

        @Override
        public void close() {
            if (db.isOwningHandle()) {
                handles.forEach(ColumnFamilyHandle::close);
                db.close();
                options.close();
                cfOptions.close();
                write.close();
            }
        }
    }

    /** The server's own {@link IndexStore} (RocksDB with its tuned options), fed the same workload. */
    private static final class Ours implements Engine {
        private final IndexStore store;
        private Sha256Hash prev = Sha256Hash.ZERO_HASH;

        Ours(Path dir) {
            store = IndexStore.open(dir, 100);
        }

        @Override
        public String name() {
            return "indexstore";
        }

        @Override
        public byte[] getScript(byte[] outpoint) {
            ByteBuffer in = ByteBuffer.wrap(outpoint);
            byte[] txid = new byte[32];
            in.get(txid);
            return store.unspentScript(
                            new TransactionOutPoint(Integer.toUnsignedLong(in.getInt()), Sha256Hash.wrapReversed(txid)))
                    .orElse(null);
        }

        @Override
        public void commitBlock(
                int height, byte[] hash, byte[] record, List<byte[][]> adds, List<byte[]> deletes, byte[] undo) {
            byte[] header = new byte[StoredBlock.HEADER_SIZE];
            System.arraycopy(prev.serialize(), 0, header, 4, 32);
            Sha256Hash blockHash = Sha256Hash.wrapReversed(hash);
            StoredBlock block = new StoredBlock(
                    blockHash,
                    height,
                    header,
                    blockHash,
                    blockHash,
                    blockHash,
                    Arrays.copyOfRange(record, 176, record.length));
            List<UnspentOutput> spent = new ArrayList<>(deletes.size());
            for (byte[] key : deletes) {
                spent.add(unspent(key, new byte[25]));
            }
            List<UnspentOutput> created = new ArrayList<>(adds.size());
            for (byte[][] add : adds) {
                created.add(unspent(add[0], add[1]));
            }
            store.connect(block, spent, created, false);
            prev = blockHash;
        }

        private static UnspentOutput unspent(byte[] key, byte[] script) {
            ByteBuffer in = ByteBuffer.wrap(key);
            byte[] txid = new byte[32];
            in.get(txid);
            return new UnspentOutput(Sha256Hash.wrapReversed(txid), Integer.toUnsignedLong(in.getInt()), script);
        }

        @Override
        public void close() {
            store.close();
        }
    }

    private static final class Jdbc implements Engine {
        private final String name;
        private final Connection connection;
        private final PreparedStatement get;
        private final PreparedStatement putBlock;
        private final PreparedStatement putHeight;
        private final PreparedStatement delUtxo;
        private final PreparedStatement putUtxo;
        private final PreparedStatement putUndo;
        private final PreparedStatement putTip;

        Jdbc(String name, Connection connection, boolean sqlite) throws SQLException {
            this.name = name;
            this.connection = connection;
            String bin = sqlite ? "BLOB" : "VARBINARY";
            String noRowId = sqlite ? " WITHOUT ROWID" : "";
            try (Statement s = connection.createStatement()) {
                if (sqlite) {
                    s.execute("PRAGMA journal_mode=WAL");
                    s.execute("PRAGMA synchronous=NORMAL");
                }
                s.execute("CREATE TABLE utxo (k " + bin + " PRIMARY KEY, s " + bin + " NOT NULL)" + noRowId);
                s.execute("CREATE TABLE block (h " + bin + " PRIMARY KEY, r " + bin + " NOT NULL)" + noRowId);
                s.execute("CREATE TABLE height (n INTEGER PRIMARY KEY, h " + bin + " NOT NULL)");
                s.execute("CREATE TABLE undo (h " + bin + " PRIMARY KEY, u " + bin + " NOT NULL)" + noRowId);
                s.execute("CREATE TABLE meta (k VARCHAR(16) PRIMARY KEY, v " + bin + " NOT NULL)");
            }
            connection.setAutoCommit(false);
            get = connection.prepareStatement("SELECT s FROM utxo WHERE k = ?");
            putBlock = connection.prepareStatement("INSERT INTO block (h, r) VALUES (?, ?)");
            putHeight = connection.prepareStatement("INSERT INTO height (n, h) VALUES (?, ?)");
            delUtxo = connection.prepareStatement("DELETE FROM utxo WHERE k = ?");
            putUtxo = connection.prepareStatement("INSERT INTO utxo (k, s) VALUES (?, ?)");
            putUndo = connection.prepareStatement("INSERT INTO undo (h, u) VALUES (?, ?)");
            putTip = connection.prepareStatement(
                    sqlite
                            ? "INSERT OR REPLACE INTO meta (k, v) VALUES ('tip', ?)"
                            : "MERGE INTO meta (k, v) KEY (k) VALUES ('tip', ?)");
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public byte[] getScript(byte[] outpoint) throws SQLException {
            get.setBytes(1, outpoint);
            try (ResultSet rs = get.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }

        @Override
        public void commitBlock(
                int height, byte[] hash, byte[] record, List<byte[][]> adds, List<byte[]> deletes, byte[] undo)
                throws SQLException {
            putBlock.setBytes(1, hash);
            putBlock.setBytes(2, record);
            putBlock.executeUpdate();
            putHeight.setInt(1, height);
            putHeight.setBytes(2, hash);
            putHeight.executeUpdate();
            for (byte[] key : deletes) {
                delUtxo.setBytes(1, key);
                delUtxo.addBatch();
            }
            delUtxo.executeBatch();
            for (byte[][] add : adds) {
                putUtxo.setBytes(1, add[0]);
                putUtxo.setBytes(2, add[1]);
                putUtxo.addBatch();
            }
            putUtxo.executeBatch();
            putUndo.setBytes(1, hash);
            putUndo.setBytes(2, undo);
            putUndo.executeUpdate();
            putTip.setBytes(1, hash);
            putTip.executeUpdate();
            connection.commit();
        }

        @Override
        public void close() throws SQLException {
            if (!connection.isClosed()) {
                connection.close();
            }
        }
    }

    private static byte[] randomBytes(SplittableRandom random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static long du(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private StorageWorkloadBenchmark() {}
}
