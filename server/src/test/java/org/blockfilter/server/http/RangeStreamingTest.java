package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1000-filter range answer is ~20 MB at mainnet filter sizes: the server streams it from one
 * snapshot instead of holding it, so a small heap serves many at once (the 1 GiB heap
 * bound). The server runs in a child JVM with {@value #HEAP} over an on-disk index of
 * {@value #BLOCKS} blocks of ~19.6 KB filters; the expected answers are built here the way the
 * server built them before it streamed (one list, one array, one JSON document).
 */
class RangeStreamingTest {
    private static final String HEAP = "-Xmx256m";
    private static final String OCTET_STREAM = "application/octet-stream";
    private static final int BLOCKS = 1001;
    private static final int CONCURRENT = 32;
    private static final int MEAN_FILTER = 19_600;

    @TempDir
    static Path dir;

    private static Process child;
    private static final List<String> childOutput = new ArrayList<>();
    private static URI base;
    private static Thread reader;
    private static List<StoredBlock> blocks;

    @BeforeAll
    static void startServerWithSmallHeap() throws IOException {
        blocks = buildIndex(dir.resolve("index"));
        child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        HEAP,
                        "-cp",
                        System.getProperty("java.class.path"),
                        RangeServerProcess.class.getName(),
                        dir.resolve("index").toString())
                .redirectErrorStream(true)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            childOutput.add(line);
        }
        if (line == null) {
            throw new IllegalStateException("the server process ended before it listened: " + childOutput);
        }
        base = URI.create("http://127.0.0.1:" + line.substring(5).trim());
        reader = new Thread(() -> {
            try {
                String l;
                while ((l = out.readLine()) != null) {
                    synchronized (childOutput) {
                        childOutput.add(l);
                    }
                }
            } catch (IOException e) {
                // the process is gone; its exit is checked by the tests
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** A cursor never released would hold the store's read lock and keep it from closing. */
    @AfterAll
    static void serverReleasesEveryCursorAndClosesTheStore() throws Exception {
        if (child == null) {
            return;
        }
        try {
            child.getOutputStream().close();
            assertTrue(
                    child.waitFor(20, TimeUnit.SECONDS), "the server did not close its store: a cursor is still held");
            reader.join(5_000);
            synchronized (childOutput) {
                String log = String.join("\n", childOutput);
                assertEquals(0, child.exitValue(), log);
                assertTrue(childOutput.contains("CLOSED"), log);
                assertFalse(
                        childOutput.stream().anyMatch(l -> l.contains("level=ERROR") || l.contains("Exception")),
                        "a client leaving mid-range is not an error: " + log);
            }
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void concurrentFullRangesOnASmallHeapAreAllCompleteAndExact() throws Exception {
        byte[] expected = sha256(oldBinary(blocks.subList(0, 1000)));
        String path = rangePath(0, 999);
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT);
        try {
            List<Future<byte[]>> answers = new ArrayList<>();
            for (int i = 0; i < CONCURRENT; i++) {
                answers.add(pool.submit(() -> {
                    HttpResponse<InputStream> r = http.send(
                            HttpRequest.newBuilder(base.resolve(path))
                                    .header("Accept", OCTET_STREAM)
                                    .timeout(Duration.ofSeconds(60))
                                    .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
                    try (InputStream body = r.body()) {
                        assertEquals(200, r.statusCode());
                        return digest(body);
                    }
                }));
            }
            for (Future<byte[]> a : answers) {
                assertArrayEquals(
                        expected, a.get(60, TimeUnit.SECONDS), "a range answer differs from the expected bytes");
            }
        } finally {
            pool.shutdownNow();
        }
        assertNoOutOfMemory();
    }

    @Test
    void streamedJsonIsTheDocumentTheMapperWrote() throws Exception {
        List<StoredBlock> range = blocks.subList(500, 1001);
        HttpResponse<byte[]> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(base.resolve(rangePath(500, 1000)))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertArrayEquals(oldJson(range), r.body());
    }

    @Test
    void aClientLeavingMidRangeLeavesTheServerServing() throws Exception {
        String path = rangePath(1, 1000);
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nAccept: application/octet-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] some = s.getInputStream().readNBytes(200_000);
            assertEquals(200_000, some.length);
            s.setSoLinger(true, 0); // reset, not a polite close
        }
        HttpResponse<InputStream> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(base.resolve(path))
                                .header("Accept", OCTET_STREAM)
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        try (InputStream body = r.body()) {
            assertArrayEquals(sha256(oldBinary(blocks.subList(1, 1001))), digest(body));
        }
        assertNoOutOfMemory();
    }

    @Test
    void badRangesStillGetTheirStatusBeforeAnyBody() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> tooLarge = http.send(
                HttpRequest.newBuilder(base.resolve(rangePath(0, 1000))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, tooLarge.statusCode());
        assertTrue(tooLarge.body().contains("range_too_large"), tooLarge.body());
        HttpResponse<String> backwards = http.send(
                HttpRequest.newBuilder(base.resolve(rangePath(10, 9))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, backwards.statusCode());
        assertTrue(backwards.body().contains("stop_before_start"), backwards.body());
    }

    private static void assertNoOutOfMemory() {
        assertTrue(child.isAlive(), "the server process died");
        synchronized (childOutput) {
            assertFalse(
                    childOutput.stream().anyMatch(l -> l.contains("OutOfMemoryError")), String.join("\n", childOutput));
        }
    }

    private static String rangePath(int start, int stop) {
        return "/api/v1/filters?start_height=" + start + "&stop_hash="
                + blocks.get(stop).blockHash();
    }

    /** Blocks 0..BLOCKS-1 with random filters of MEAN_FILTER +- 1000 bytes (the server does not decode them). */
    private static List<StoredBlock> buildIndex(Path data) {
        Random random = new Random(12);
        List<StoredBlock> out = new ArrayList<>(BLOCKS);
        Sha256Hash prev = Sha256Hash.ZERO_HASH;
        Sha256Hash prevHeader = Sha256Hash.ZERO_HASH;
        try (IndexStore store = IndexStore.open(data)) {
            for (int h = 0; h < BLOCKS; h++) {
                ByteBuffer header = ByteBuffer.allocate(StoredBlock.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
                header.putInt(0x20000000).put(prev.serialize()).putInt(h).putInt(random.nextInt());
                Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header.array()));
                byte[] filter = new byte[MEAN_FILTER - 1000 + random.nextInt(2001)];
                random.nextBytes(filter);
                Sha256Hash filterHash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(filter));
                Sha256Hash filterHeader = Sha256Hash.twiceOf(filterHash.serialize(), prevHeader.serialize());
                StoredBlock b = new StoredBlock(hash, h, header.array(), filterHash, filterHeader, prevHeader, filter);
                store.connect(b, List.of(), List.of(), false);
                out.add(b);
                prev = hash;
                prevHeader = filterHeader;
            }
        }
        return out;
    }

    /** The binary answer as the server built it before streaming: one array of every filter. */
    private static byte[] oldBinary(List<StoredBlock> range) {
        int size = 0;
        for (StoredBlock b : range) {
            size += 32 + CompactSize.size(b.filter().length) + b.filter().length;
        }
        WireWriter w = new WireWriter(size);
        for (StoredBlock b : range) {
            w.hash(b.blockHash()).varBytes(b.filter());
        }
        return w.toByteArray();
    }

    private record RangeEntry(String blockHash, int height, String filter) {}

    private record RangeJson(List<RangeEntry> filters) {}

    /** The JSON answer as the server built it before streaming: the mapper over a list of records. */
    private static byte[] oldJson(List<StoredBlock> range) throws IOException {
        return new ObjectMapper()
                .writeValueAsBytes(new RangeJson(range.stream()
                        .map(b -> new RangeEntry(
                                b.blockHash().toString(),
                                b.height(),
                                HexFormat.of().formatHex(b.filter())))
                        .toList()));
    }

    private static byte[] digest(InputStream in) throws IOException {
        MessageDigest d = sha();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = in.read(buf)) >= 0) {
            d.update(buf, 0, n);
        }
        return d.digest();
    }

    private static byte[] sha256(byte[] b) {
        return sha().digest(b);
    }

    private static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
