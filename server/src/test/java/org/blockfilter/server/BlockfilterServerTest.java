package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.blockfilter.regtest.embedded.LiveDemo;
import org.blockfilter.server.export.StaticExport;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.store.IndexStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembled server on the embedded demo node: it comes up whole (REST and P2P answer from an
 * index at the node's tip), and after {@link BlockfilterServer#close()}, or after a start that
 * failed half-way, nothing it opened is left: no listening port, no thread, no lock on the index.
 */
class BlockfilterServerTest {
    private static final int BLOCKS = 12;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /**
     * Threads of the JDK itself are not the server's: the keep-alive timer, the common pool,
     * CompletableFuture's one timer for the whole JVM (started by the first {@code orTimeout}, which
     * the JSON-RPC client uses for its body deadline, and never stopped), and the selector of the
     * JSON-RPC client's java.net.http.HttpClient, which Java 17 cannot close (its thread ends once
     * the client is garbage; the test still holds the server, and so the client).
     */
    private static final List<String> JDK_THREADS =
            List.of("Keep-Alive-", "ForkJoinPool", "process reaper", "CompletableFutureDelayScheduler", "HttpClient-");

    @TempDir
    Path dir;

    private static LiveDemo.Options demo() {
        return new LiveDemo.Options(BLOCKS, 3, Optional.empty(), Duration.ZERO);
    }

    @Test
    void startsEveryPartAndCloseLeavesNoPortThreadOrLock() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Path data = dir.resolve("index");
        int restPort;
        int p2pPort;
        int nodePort;
        BlockfilterServer server = BlockfilterServer.builder()
                .embeddedDemo(demo())
                .dataDir(data)
                .indexing(BlockfilterServer.Indexing.CATCH_UP_THEN_FOLLOW)
                .p2p("127.0.0.1", 0)
                .start();
        try {
            assertEquals(BLOCKS, server.reader().tip().height(), "caught up before serving");
            restPort = server.rest().orElseThrow().port();
            p2pPort = server.p2pAddress().orElseThrow().getPort();
            nodePort = server.demo().orElseThrow().node().rpcUri().getPort();
            String status = get(server.restBaseUri().orElseThrow() + "/api/v1/status");
            assertTrue(status.contains("\"indexedHeight\":" + BLOCKS), status);
            assertTrue(status.contains("regtest"), "REST names the node's network: " + status);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), p2pPort)) {
                assertTrue(s.isConnected());
            }
            StaticExport.Result export = server.export(dir.resolve("export"), 2, true);
            assertEquals(BLOCKS - 2, export.tipHeight(), "the export stops the safety depth below the tip");
            assertEquals(BLOCKS - 1, export.blocksWritten(), "raw blocks 0..tip-2 from the node");
            assertTrue(Files.readString(dir.resolve("export").resolve(StaticExport.INDEX))
                    .contains("regtest"));
        } finally {
            server.close();
        }
        server.close(); // each part is closed once; a second close does nothing
        assertNothingLeft(before, data, restPort, p2pPort, nodePort);
        try (IndexStore store = IndexStore.open(data)) {
            assertEquals(BLOCKS, store.tip().orElseThrow().height(), "the index stays in the data directory");
        }
    }

    @Test
    void aStartThatFailsAtP2pClosesWhatStartedBefore() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Path data = dir.resolve("index");
        int restPort = freePort();
        try (ServerSocket taken = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            BlockfilterServer server = BlockfilterServer.builder()
                    .embeddedDemo(demo())
                    .dataDir(data)
                    .rest(RestConfig.defaults().withPort(restPort))
                    .p2p("127.0.0.1", taken.getLocalPort())
                    .build();
            BlockfilterServer.StartException e = assertThrows(BlockfilterServer.StartException.class, server::start);
            assertTrue(e.getMessage().contains("cannot serve P2P"), e.getMessage());
            assertTrue(e.getMessage().contains("" + taken.getLocalPort()), e.getMessage());
            int nodePort = server.demo().orElseThrow().node().rpcUri().getPort();
            assertNothingLeft(before, data, restPort, -1, nodePort);
            server.close(); // closing again after the failed start is harmless
            assertThrows(IllegalStateException.class, server::start, "a closed server does not start again");
        }
    }

    @Test
    void aStartThatFailsAtRestLeavesTheStoreUnlocked() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Path data = dir.resolve("index");
        try (ServerSocket taken = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            BlockfilterServer server = BlockfilterServer.builder()
                    .embeddedDemo(demo())
                    .dataDir(data)
                    .rest(RestConfig.defaults().withPort(taken.getLocalPort()))
                    .build();
            BlockfilterServer.StartException e = assertThrows(BlockfilterServer.StartException.class, server::start);
            assertTrue(e.getMessage().contains("cannot serve HTTP"), e.getMessage());
            assertNothingLeft(
                    before,
                    data,
                    -1,
                    -1,
                    server.demo().orElseThrow().node().rpcUri().getPort());
        }
    }

    @Test
    void aServerNeedsANode() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> BlockfilterServer.builder().build());
        assertTrue(e.getMessage().contains("node"), e.getMessage());
    }

    @Test
    void aSecondaryNeedsThePrimarysDataDirectory() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> BlockfilterServer.builder()
                        .node(java.net.URI.create("http://u:p@127.0.0.1:1"))
                        .readOnlySecondary(null)
                        .build());
        assertTrue(e.getMessage().contains("dataDir"), e.getMessage());
    }

    /** No port of the server listens, none of its threads runs, and the index opens (no RocksDB lock held). */
    private static void assertNothingLeft(Set<Thread> before, Path data, int... ports) throws Exception {
        for (int port : ports) {
            if (port > 0) {
                assertFree(port);
            }
        }
        IndexStore.open(data).close(); // throws while another instance holds the directory's lock
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        List<String> left = serverThreads(before);
        while (!left.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("threads still running after close: " + left);
            }
            LockSupport.parkNanos(50_000_000); // polling the thread table, not ordering threads
            left = serverThreads(before);
        }
    }

    private static List<String> serverThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t))
                .map(Thread::getName)
                .filter(name -> JDK_THREADS.stream().noneMatch(name::startsWith))
                .sorted()
                .toList();
    }

    private static void assertFree(int port) throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new AssertionError("port " + port + " is still taken after close: " + e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String get(String url) throws IOException {
        HttpURLConnection c =
                (HttpURLConnection) java.net.URI.create(url).toURL().openConnection();
        c.setConnectTimeout(30_000);
        c.setReadTimeout(60_000);
        try (InputStream in = c.getInputStream()) {
            assertEquals(200, c.getResponseCode());
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }
}
