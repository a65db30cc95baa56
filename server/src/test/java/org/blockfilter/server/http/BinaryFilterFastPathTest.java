package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Binary filters and ranges are answered in front of Javalin from the bytes the store read; these
 * answers must be the Javalin routes' answers byte for byte, headers included. A request with one
 * more query parameter ({@code via=javalin}, which the routes ignore and the fast path does not
 * take) gets the Javalin route's answer from the same server, so each pair is compared directly.
 * The index is a real on-disk store with filters of 1-, 3- and 5-byte CompactSize lengths (one
 * larger than the range write buffer) and a stale block.
 */
class BinaryFilterFastPathTest {
    private static final String BIN = "application/octet-stream";
    private static final int BLOCKS = 40;
    private static final int STALE_HEIGHT = 30;

    @TempDir
    static Path dir;

    private static IndexStore store;
    private static RestServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<StoredBlock> chain = new ArrayList<>();
    private static StoredBlock stale;

    @BeforeAll
    static void start() {
        store = IndexStore.open(dir.resolve("index"));
        Random random = new Random(5);
        for (int h = 0; h < BLOCKS; h++) {
            int size = switch (h) {
                case 3 -> 100; // 1-byte CompactSize
                case 7 -> 300_000; // 5-byte CompactSize, larger than the fast path's buffer
                case 12 -> 70_000; // 5-byte CompactSize, within the range buffer
                default -> 15_000 + random.nextInt(10_000);
            };
            if (h == STALE_HEIGHT) {
                // A block that is connected, then replaced at its height: its filter stays, stale.
                stale = block(h, size, random, 1);
                store.connect(stale, List.of(), List.of(), false);
                store.disconnectTip(false);
            }
            StoredBlock b = block(h, size, random, 0);
            store.connect(b, List.of(), List.of(), false);
            chain.add(b);
        }
        server = RestServer.start(
                RestConfig.defaults().withPort(0), new StoreFilterIndexReader(store), new TipNode(BLOCKS - 1));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    void binaryFilterIsTheRouteAnswerWithItsLength() throws Exception {
        List<StoredBlock> all = new ArrayList<>(chain);
        all.add(stale);
        for (StoredBlock b : all) {
            String path = "/api/v1/filters/" + b.blockHash();
            HttpResponse<byte[]> fast = get(path, BIN);
            HttpResponse<byte[]> route = get(path + "?via=javalin", BIN);
            assertEquals(200, fast.statusCode());
            assertArrayEquals(b.filter(), fast.body(), "filter of block " + b.height());
            assertSameAnswer(route, fast, path);
            assertEquals(
                    Optional.of(Integer.toString(b.filter().length)),
                    fast.headers().firstValue("Content-Length"),
                    "a binary filter answer says its length");
        }
        assertEquals(
                Optional.of("public, max-age=31536000, immutable"),
                get("/api/v1/filters/" + chain.get(0).blockHash(), BIN)
                        .headers()
                        .firstValue("Cache-Control"));
        assertEquals(
                Optional.of("public, max-age=" + RestConfig.defaults().tipMaxAgeSeconds()),
                get("/api/v1/filters/" + stale.blockHash(), BIN).headers().firstValue("Cache-Control"),
                "a stale block's filter is not immutable");
    }

    @Test
    void binaryRangeIsTheRouteAnswer() throws Exception {
        int[][] ranges = {{0, BLOCKS - 1}, {5, 9}, {7, 7}, {3, 3}, {BLOCKS - 2, BLOCKS - 1}};
        for (int[] r : ranges) {
            String path = "/api/v1/filters?start_height=" + r[0] + "&stop_hash="
                    + chain.get(r[1]).blockHash();
            HttpResponse<byte[]> fast = get(path, BIN);
            HttpResponse<byte[]> route = get(path + "&via=javalin", BIN);
            assertEquals(200, fast.statusCode(), path);
            assertArrayEquals(binary(chain.subList(r[0], r[1] + 1)), fast.body(), path);
            assertSameAnswer(route, fast, path);
        }
        String swapped = "/api/v1/filters?stop_hash=" + chain.get(9).blockHash() + "&start_height=5";
        assertArrayEquals(binary(chain.subList(5, 10)), get(swapped, BIN).body());
    }

    /** What the fast path leaves to the routes is answered as before: errors, CORS, 304, JSON. */
    @Test
    void everythingElseIsTheRoutesAnswer() throws Exception {
        String unknown = "/api/v1/filters/" + Sha256Hash.of(new byte[] {1});
        assertEquals(404, get(unknown, BIN).statusCode());
        assertTrue(new String(get(unknown, BIN).body(), StandardCharsets.UTF_8).contains("\"code\":\"unknown_block\""));
        String staleStop = "/api/v1/filters?start_height=0&stop_hash=" + stale.blockHash();
        assertEquals(404, get(staleStop, BIN).statusCode());
        assertTrue(new String(get(staleStop, BIN).body(), StandardCharsets.UTF_8).contains("not_on_best_chain"));
        String below =
                "/api/v1/filters?start_height=9&stop_hash=" + chain.get(5).blockHash();
        assertEquals(400, get(below, BIN).statusCode());
        // An escaped parameter is the routes' to decode: %30 is "0".
        HttpResponse<byte[]> escaped =
                get("/api/v1/filters?start_height=%30&stop_hash=" + chain.get(5).blockHash(), BIN);
        assertEquals(200, escaped.statusCode());
        assertArrayEquals(binary(chain.subList(0, 6)), escaped.body());

        String one = "/api/v1/filters/" + chain.get(2).blockHash();
        HttpResponse<byte[]> cors = send(HttpRequest.newBuilder(uri(one))
                .header("Accept", BIN)
                .header("Origin", "http://example.org")
                .build());
        assertEquals(200, cors.statusCode());
        assertArrayEquals(chain.get(2).filter(), cors.body());
        assertTrue(cors.headers().firstValue("Access-Control-Allow-Origin").isPresent(), "CORS is Javalin's");
        String etag = cors.headers().firstValue("ETag").orElseThrow();
        HttpResponse<byte[]> notModified = send(HttpRequest.newBuilder(uri(one))
                .header("Accept", BIN)
                .header("If-None-Match", etag)
                .build());
        assertEquals(304, notModified.statusCode());
        assertEquals(200, get(one, "application/json").statusCode());
        assertTrue(new String(get(one, "application/json").body(), StandardCharsets.UTF_8).contains("\"filter\":\""));
    }

    @Test
    void fastAnswersAreCountedInTheRouteMetrics() throws Exception {
        String single = "route=\"/api/v1/filters/{hashOrHeight}\",status=\"200\"";
        String range = "route=\"/api/v1/filters\",status=\"200\"";
        double singles = count(single);
        double ranges = count(range);
        get("/api/v1/filters/" + chain.get(1).blockHash(), BIN);
        get("/api/v1/filters?start_height=0&stop_hash=" + chain.get(4).blockHash(), BIN);
        assertEquals(singles + 1, count(single));
        assertEquals(ranges + 1, count(range));
    }

    private static double count(String labels) throws Exception {
        String metrics = new String(get("/metrics", "text/plain").body(), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("blockfilter_http_requests_seconds_count\\{method=\"GET\"," + Pattern.quote(labels)
                        + "} ([0-9.E]+)")
                .matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** Same status, body and the headers clients read; only the framing may differ. */
    private static void assertSameAnswer(HttpResponse<byte[]> route, HttpResponse<byte[]> fast, String path) {
        assertEquals(route.statusCode(), fast.statusCode(), path);
        assertArrayEquals(route.body(), fast.body(), path);
        for (String h : List.of("Content-Type", "ETag", "Cache-Control", "Vary", "Content-Encoding")) {
            assertEquals(route.headers().allValues(h), fast.headers().allValues(h), h + " of " + path);
        }
    }

    private static byte[] binary(List<StoredBlock> blocks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (StoredBlock b : blocks) {
            out.writeBytes(b.blockHash().serialize());
            out.writeBytes(CompactSize.encode(b.filter().length));
            out.writeBytes(b.filter());
        }
        return out.toByteArray();
    }

    private static StoredBlock block(int height, int filterSize, Random random, int variant) {
        Sha256Hash prev =
                height == 0 ? Sha256Hash.ZERO_HASH : chain.get(height - 1).blockHash();
        ByteBuffer header = ByteBuffer.allocate(StoredBlock.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0x20000000).put(prev.serialize()).putInt(height).putInt(variant);
        Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header.array()));
        byte[] filter = new byte[filterSize];
        random.nextBytes(filter);
        Sha256Hash filterHash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(filter));
        Sha256Hash prevHeader =
                height == 0 ? Sha256Hash.ZERO_HASH : chain.get(height - 1).filterHeader();
        Sha256Hash filterHeader = Sha256Hash.twiceOf(filterHash.serialize(), prevHeader.serialize());
        return new StoredBlock(hash, height, header.array(), filterHash, filterHeader, prevHeader, filter);
    }

    private static URI uri(String path) {
        return server.baseUri().resolve(path);
    }

    private static HttpResponse<byte[]> get(String path, String accept) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).build());
    }

    private static HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }
}
