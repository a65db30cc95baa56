package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.embedded.EmbeddedLauncher;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.node.RpcNodeGateway;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * A damaged index, damaged as disks do it (one flipped byte in a column family's table file, or
 * in the write-ahead log), against the embedded node: reads of damaged records are a 503
 * {@code index_damaged}, never a 500, and status stops saying synced; {@code verify} finds the
 * damage in every column family and {@code repair} mends it, after which the index is
 * byte-identical to a fresh one; a write-ahead log that recovery cuts short is a WARN saying how
 * many blocks will be indexed again.
 */
class IndexDamageTest {
    private static final int BLOCKS = 40;
    private static EmbeddedNode node;
    private static String url;
    private static Sha256Hash reference;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    static void startNode() {
        node = EmbeddedLauncher.start(BLOCKS, 3);
        URI u = node.rpcUri();
        url = "http://" + node.rpcUser() + ":" + node.rpcPassword() + "@" + u.getHost() + ":" + u.getPort();
        Path fresh = shared.resolve("reference");
        assertEquals(0, index(fresh));
        try (IndexStore store = IndexStore.open(fresh)) {
            reference = store.inspection().contentDigest();
        }
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    private static int index(Path at) {
        return ServerMain.run("--node", url, "--data-dir", at.toString(), "--exit-when-synced");
    }

    private record Run(int exit, String out) {}

    private static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = ServerMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(exit, out + err.toString());
    }

    /** An index of the node's chain with every family in table files, one byte flipped in one family's table. */
    private Path damaged(String family) throws Exception {
        Path index = dir.resolve("index");
        assertEquals(0, index(index));
        IndexFiles.flush(index);
        List<Path> tables = IndexFiles.tables(index, family);
        assertFalse(tables.isEmpty(), "a table file of " + family);
        // Offset 20 is inside the first data block (the index and footer are at the end).
        IndexFiles.flip(tables.get(0), 20);
        return tables.get(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"block", "height", "utxo", "undo", "default"})
    void verifyFindsAFlippedByteInEachFamilysTableAndRepairMendsIt(String family) throws Exception {
        Path table = damaged(family);
        Path index = dir.resolve("index");

        Run verify = cli("verify", "--data-dir", index.toString());
        assertEquals(1, verify.exit(), verify.out());
        assertTrue(verify.out().contains(family + " " + table), verify.out());

        Run repair = cli("repair", "--data-dir", index.toString(), "--node", url);
        assertEquals(0, repair.exit(), repair.out());

        Run again = cli("verify", "--data-dir", index.toString(), "--node", url);
        assertEquals(0, again.exit(), again.out());
        try (IndexStore store = IndexStore.open(index)) {
            assertEquals(reference, store.inspection().contentDigest(), "byte-identical to a fresh index");
        }
    }

    @Test
    void reindexFromAHeightRebuildsFromThereAndEqualsAFreshIndex() {
        Path index = dir.resolve("index");
        assertEquals(0, index(index));
        Run repair = cli("repair", "--data-dir", index.toString(), "--node", url, "--reindex-from", "30");
        assertEquals(0, repair.exit(), repair.out());
        assertTrue(repair.out().contains("from height 30"), repair.out());
        try (IndexStore store = IndexStore.open(index)) {
            assertEquals(reference, store.inspection().contentDigest());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"block", "height"})
    void damagedReadsAre503IndexDamagedAndStatusIsNotSynced(String family) throws Exception {
        Path table = damaged(family);
        ObjectMapper json = new ObjectMapper();
        HttpClient http = HttpClient.newHttpClient();
        Logger logger = (Logger) LoggerFactory.getLogger("org.blockfilter.server.store");
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        BitcoinRpc rpc = new BitcoinRpc(
                JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(30)));
        try (IndexStore store = IndexStore.open(dir.resolve("index"));
                RestServer rest = RestServer.start(
                        RestConfig.defaults().withPort(0).withNetwork("regtest"),
                        new StoreFilterIndexReader(store),
                        new RpcNodeGateway(rpc))) {
            int damagedAnswers = 0;
            for (int h = 0; h <= BLOCKS; h++) {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(rest.baseUri() + "/api/v1/filters/" + h))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertTrue(r.statusCode() == 200 || r.statusCode() == 503, h + ": " + r.statusCode() + " " + r.body());
                if (r.statusCode() == 503) {
                    JsonNode error = json.readTree(r.body()).get("error");
                    assertEquals("index_damaged", error.get("code").asText(), r.body());
                    assertTrue(
                            error.get("message")
                                    .asText()
                                    .contains(table.getFileName().toString()),
                            r.body());
                    damagedAnswers++;
                }
            }
            assertTrue(damagedAnswers > 0, "some reads hit the damaged block");
            // A binary range over every height reads the damaged record before it sends a byte.
            HttpResponse<String> range = http.send(
                    HttpRequest.newBuilder(URI.create(
                                    rest.baseUri() + "/api/v1/filters?start_height=0&stop_hash=" + rpc.bestBlockHash()))
                            .header("Accept", "application/octet-stream")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, range.statusCode(), range.body());
            assertEquals(
                    "index_damaged",
                    json.readTree(range.body()).get("error").get("code").asText(),
                    range.body());
            JsonNode status = json.readTree(http.send(
                            HttpRequest.newBuilder(URI.create(rest.baseUri() + "/api/v1/status"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body());
            assertFalse(status.get("synced").asBoolean(), status.toString());
            double counted = damagedReadsMetric(http, rest);
            assertTrue(counted >= damagedAnswers, "metric " + counted + " >= " + damagedAnswers);
        } finally {
            logger.detachAppender(logs);
        }
        List<String> errors = logs.list.stream()
                .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.ERROR)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
        assertEquals(1, errors.size(), "one ERROR per damaged file: " + errors);
        assertTrue(errors.get(0).startsWith("event=store_damaged family=" + family + " file=" + table), errors.get(0));
        assertTrue(errors.get(0).matches(".* heights=\"\\d+\\.\\.\\d+\" .*"), errors.get(0));
    }

    @Test
    void aDamagedBinaryReadIsCountedOnce() throws Exception {
        damaged("block");
        HttpClient http = HttpClient.newHttpClient();
        BitcoinRpc rpc = new BitcoinRpc(
                JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(30)));
        try (IndexStore store = IndexStore.open(dir.resolve("index"));
                RestServer rest = RestServer.start(
                        RestConfig.defaults().withPort(0).withNetwork("regtest"),
                        new StoreFilterIndexReader(store),
                        new RpcNodeGateway(rpc))) {
            int damagedAnswers = 0;
            for (int h = 0; h <= BLOCKS; h++) {
                Sha256Hash hash = rpc.blockHash(h).orElseThrow();
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(rest.baseUri() + "/api/v1/filters/" + hash))
                                .header("Accept", "application/octet-stream")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertTrue(r.statusCode() == 200 || r.statusCode() == 503, h + ": " + r.statusCode() + " " + r.body());
                if (r.statusCode() == 503) {
                    damagedAnswers++;
                    // The Javalin route (a query parameter it ignores) gives the same answer.
                    HttpResponse<String> route = http.send(
                            HttpRequest.newBuilder(
                                            URI.create(rest.baseUri() + "/api/v1/filters/" + hash + "?via=route"))
                                    .header("Accept", "application/octet-stream")
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(503, route.statusCode(), route.body());
                    assertEquals(route.body(), r.body());
                    for (String header : List.of("Content-Type", "Cache-Control", "Vary")) {
                        assertEquals(
                                route.headers().allValues(header), r.headers().allValues(header), header);
                    }
                    damagedAnswers++;
                }
            }
            assertTrue(damagedAnswers > 0, "some reads hit the damaged block");
            HttpResponse<String> range = http.send(
                    HttpRequest.newBuilder(URI.create(
                                    rest.baseUri() + "/api/v1/filters?start_height=0&stop_hash=" + rpc.bestBlockHash()))
                            .header("Accept", "application/octet-stream")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, range.statusCode(), range.body());
            assertEquals(damagedAnswers + 1, store.damage().damagedReads(), "one count per damaged answer");
            assertEquals(damagedAnswers + 1, damagedReadsMetric(http, rest), "the metric says the same");
        }
    }

    private static double damagedReadsMetric(HttpClient http, RestServer rest) throws Exception {
        String metrics = http.send(
                        HttpRequest.newBuilder(URI.create(rest.baseUri() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return metrics.lines()
                .filter(l -> l.startsWith("blockfilter_store_damaged_reads_total "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no damaged-reads metric: " + metrics));
    }

    @Test
    void aWriteAheadLogThatRecoveryCutsShortIsAWarnWithTheBlocksToIndexAgain() throws Exception {
        Path index = dir.resolve("index");
        assertEquals(0, index(index));
        Path wal = IndexFiles.newestWal(index);
        long size = Files.size(wal);
        assertTrue(size > 10_000, "the blocks are in the write-ahead log: " + size);
        IndexFiles.flip(wal, size / 2);

        Logger logger = (Logger) LoggerFactory.getLogger("org.blockfilter.server.store");
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        int height;
        try (IndexStore store = IndexStore.open(index)) {
            height = store.tip().orElseThrow().height();
        } finally {
            logger.detachAppender(logs);
        }
        assertTrue(height < BLOCKS, "recovery dropped blocks: tip " + height);
        String warn = logs.list.stream()
                .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.contains("wal_recovery_dropped_data"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no WARN about the dropped blocks: " + logs.list));
        assertTrue(warn.contains("recovered_height=" + height), warn);
        assertTrue(warn.contains("file=" + wal.getFileName()), warn);
        assertTrue(warn.contains("blocks_to_reindex=" + (BLOCKS - height)), warn);

        assertEquals(0, index(index));
        try (IndexStore store = IndexStore.open(index)) {
            assertEquals(reference, store.inspection().contentDigest(), "indexed again from the node");
        }
    }

    /** A mistyped --data-dir is a bad option: repair must not create an empty index there and call it sound. */
    @Test
    void repairRefusesADirectoryWithoutAnIndexAndCreatesNothing() throws Exception {
        Path missing = dir.resolve("no-such-index");
        Run run = cli("repair", "--data-dir", missing.toString(), "--node", url);
        assertEquals(2, run.exit(), run.out());
        assertTrue(run.out().contains("no index in --data-dir"), run.out());
        assertFalse(Files.exists(missing), "repair created " + missing);

        Path empty = Files.createDirectories(dir.resolve("empty"));
        run = cli("repair", "--data-dir", empty.toString(), "--node", url);
        assertEquals(2, run.exit(), run.out());
        try (var files = Files.list(empty)) {
            assertEquals(List.of(), files.toList(), "repair wrote into an empty directory");
        }
        assertFalse(Files.exists(dir.resolve("empty.repair")), "repair left a rebuild beside it");
    }

    /** --network names the network, and the node still serves --blocks: the two options together export the blocks. */
    @Test
    void exportWithANamedNetworkStillTakesTheBlocksFromTheNode() throws Exception {
        Path index = dir.resolve("index");
        assertEquals(0, index(index));
        Path out = dir.resolve("www");
        Run run = cli(
                "export",
                "--data-dir",
                index.toString(),
                "--out",
                out.toString(),
                "--node",
                url,
                "--network",
                "regtest",
                "--blocks");
        assertEquals(0, run.exit(), run.out());
        try (var blocks = Files.list(out.resolve("blocks"))) {
            assertTrue(blocks.count() > 0, "no block files: " + run.out());
        }
    }
}
