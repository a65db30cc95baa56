package org.blockfilter.regtest.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes on one index: the primary indexes and serves, a {@code
 * --read-only-secondary} process serves the same directory, answers with the same bytes, and
 * follows the primary's tip as the chain grows; with {@code --p2p-port} it serves BIP 157 over P2P
 * from the same index too.
 */
class SecondaryServerTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private EmbeddedNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void secondaryProcessServesThePrimarysBytesAndFollowsItsTip() throws Exception {
        ScenarioSpec spec = ScenarioSpec.small(11L, 15);
        node = EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()));
        ScenarioRunner.run(node, spec, line -> {});
        String url = "http://" + enc(node.rpcUser()) + ":" + enc(node.rpcPassword()) + "@127.0.0.1:"
                + node.rpcUri().getPort();
        String data = dir.resolve("index").toString();
        try (ChildServer primary = ChildServer.startMain(
                "--node", url, "--data-dir", data, "--port", "0", "--no-p2p", "--poll-ms", "100")) {
            URI p = baseOf(primary);
            assertTrue(
                    primary.sawOrAwaitLine(l -> l.contains("event=caught_up"), TIMEOUT),
                    "primary indexed:\n" + primary.tail());
            try (ChildServer secondary = ChildServer.startMain(
                    "--node",
                    url,
                    "--data-dir",
                    data,
                    "--read-only-secondary",
                    "--port",
                    "0",
                    "--p2p-port",
                    "0",
                    "--poll-ms",
                    "100")) {
                URI s = baseOf(secondary);
                HttpClient http = HttpClient.newHttpClient();
                assertEquals(node.tipHeight(), indexedHeight(http, s), "the secondary opens at the primary's tip");
                assertSameAnswers(http, p, s, node.tipHeight());

                node.mine(7);
                int tip = node.tipHeight();
                assertTrue(
                        primary.awaitLine(l -> l.contains(ChildServer.BLOCK_EVENT + tip), TIMEOUT),
                        "primary indexed the new blocks:\n" + primary.tail());
                assertTrue(
                        secondary.awaitLine(l -> l.contains("event=secondary_tip height=" + tip), TIMEOUT),
                        "secondary caught up:\n" + secondary.tail());
                assertEquals(tip, indexedHeight(http, s));
                assertSameAnswers(http, p, s, tip);
                assertServesP2p(secondary, http, p, tip);
            }
        }
    }

    private void assertSameAnswers(HttpClient http, URI primary, URI secondary, int tip) throws Exception {
        Sha256Hash tipHash = node.blockHash(tip).orElseThrow();
        for (String path : List.of(
                "/api/v1/headers?start_height=0&count=2000",
                "/api/v1/filters?start_height=" + Math.max(0, tip - 999) + "&stop_hash=" + tipHash,
                "/api/v1/filter-headers?start_height=0&stop_hash=" + tipHash,
                "/api/v1/checkpoints?stop_hash=" + tipHash)) {
            HttpResponse<byte[]> a = get(http, primary, path);
            HttpResponse<byte[]> b = get(http, secondary, path);
            assertEquals(200, a.statusCode(), path);
            assertEquals(200, b.statusCode(), path);
            assertArrayEquals(a.body(), b.body(), path);
        }
    }

    /** The secondary's P2P listener answers from the index: its tip, and the filters REST serves. */
    private void assertServesP2p(ChildServer secondary, HttpClient http, URI primary, int tip) throws Exception {
        String line = secondary.lines().stream()
                .filter(l -> l.contains("BIP 157 P2P"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the secondary printed its P2P address:\n" + secondary.tail()));
        int port = Integer.parseInt(line.replaceAll(".*127\\.0\\.0\\.1:(\\d+).*", "$1"));
        try (P2pSource p2p =
                P2pSource.connect(new InetSocketAddress("127.0.0.1", port), Chain.REGTEST, P2pSource.Options.DEFAULT)) {
            assertEquals(tip, p2p.tipHeight());
            Sha256Hash tipHash = node.blockHash(tip).orElseThrow();
            byte[] rest = get(http, primary, "/api/v1/filters?start_height=" + tip + "&stop_hash=" + tipHash)
                    .body();
            byte[] filter = p2p.filters(tip, tipHash).get(0).filter();
            byte[] tail = java.util.Arrays.copyOfRange(rest, rest.length - filter.length, rest.length);
            assertArrayEquals(tail, filter, "the P2P filter of the tip is the REST one");
        }
    }

    private static int indexedHeight(HttpClient http, URI base) throws Exception {
        return JSON.readTree(get(http, base, "/api/v1/status").body())
                .path("indexedHeight")
                .asInt(-1);
    }

    private static HttpResponse<byte[]> get(HttpClient http, URI base, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .header("Accept", path.contains("status") ? "application/json" : "application/octet-stream")
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static URI baseOf(ChildServer child) throws InterruptedException {
        assertTrue(child.awaitLine(l -> l.contains("/api/v1/status"), TIMEOUT), "printed its URL:\n" + child.tail());
        String line = child.lines().stream()
                .filter(l -> l.contains("/api/v1/status"))
                .findFirst()
                .orElseThrow();
        String status = line.substring(line.indexOf("http://")).trim();
        return URI.create(status.substring(0, status.indexOf("/api/v1/status")));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
