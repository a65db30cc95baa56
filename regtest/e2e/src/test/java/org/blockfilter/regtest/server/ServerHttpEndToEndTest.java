package org.blockfilter.regtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.junit.jupiter.api.Test;

/**
 * The README's main command in miniature: the real {@code ServerMain} in its own JVM with the
 * embedded node's demo chain and a free port prints its URLs, indexes the chain, serves it over
 * HTTP (our API and the Core-compatible endpoint), and on SIGTERM shuts down cleanly and deletes
 * its temporary data directory.
 */
class ServerHttpEndToEndTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void embeddedServerIndexesTheDemoChainAndServesItOverHttp() throws Exception {
        try (ChildServer child =
                // No miner: the status check below compares the node's height with the index's.
                ChildServer.startMain(
                        "--embedded",
                        "--demo-blocks",
                        "110",
                        "--demo-block-interval",
                        "0",
                        "--port",
                        "0",
                        "--p2p-port",
                        "0")) {
            assertTrue(
                    child.awaitLine(l -> l.contains("/api/v1/status"), TIMEOUT), "printed its URLs:\n" + child.tail());
            String statusLine = child.lines().stream()
                    .filter(l -> l.contains("/api/v1/status"))
                    .findFirst()
                    .orElseThrow();
            URI status = URI.create(
                    statusLine.substring(statusLine.indexOf("http://")).trim());
            String base = status.toString().substring(0, status.toString().indexOf("/api/v1/status"));
            assertTrue(status.getHost().equals("127.0.0.1"), "binds loopback by default: " + status);
            if (child.lines().stream().noneMatch(l -> l.contains("event=caught_up"))) {
                assertTrue(
                        child.awaitLine(l -> l.contains("event=caught_up"), TIMEOUT),
                        "indexed the demo chain:\n" + child.tail());
            }

            HttpClient http = HttpClient.newHttpClient();
            JsonNode st = JSON.readTree(get(http, status).body());
            assertEquals("regtest", st.path("network").asText());
            assertTrue(st.path("indexedHeight").asInt() >= 100, st.toString());
            assertEquals(st.path("nodeHeight").asInt(), st.path("indexedHeight").asInt(), st.toString());

            Block genesis = RegtestNode.PARAMS.getGenesisBlock();
            byte[] filter = BasicFilter.build(genesis, op -> {
                        throw new AssertionError("genesis spends nothing");
                    })
                    .bytes();
            // Core's BlockFilter serialization: block hash (wire order), filter type, CompactSize length, filter.
            String expected = HexFormat.of().formatHex(genesis.getHash().serialize()) + "00"
                    + String.format("%02x", filter.length) + HexFormat.of().formatHex(filter);
            HttpResponse<String> core =
                    get(http, URI.create(base + "/rest/blockfilter/basic/" + genesis.getHashAsString() + ".hex"));
            assertEquals(200, core.statusCode());
            assertEquals(expected + "\n", core.body());
            // The same index over BIP 157 P2P, on the port it printed; its meters on /metrics.
            if (child.lines().stream().noneMatch(l -> l.contains("BIP 157 P2P"))) {
                assertTrue(child.awaitLine(l -> l.contains("BIP 157 P2P"), TIMEOUT), child.tail());
            }
            String p2pLine = child.lines().stream()
                    .filter(l -> l.contains("BIP 157 P2P"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("printed its P2P address:\n" + child.tail()));
            int p2pPort = Integer.parseInt(p2pLine.replaceAll(".*127\\.0\\.0\\.1:(\\d+).*", "$1"));
            try (org.blockfilter.wallet.source.p2p.P2pSource p2p = org.blockfilter.wallet.source.p2p.P2pSource.connect(
                    new java.net.InetSocketAddress("127.0.0.1", p2pPort),
                    Chain.REGTEST,
                    org.blockfilter.wallet.source.p2p.P2pSource.Options.DEFAULT)) {
                assertEquals(st.path("indexedHeight").asInt(), p2p.tipHeight());
                assertEquals(
                        List.of(new org.blockfilter.wallet.source.ChainSource.BlockFilterBytes(
                                genesis.getHash(), filter)),
                        p2p.filters(0, genesis.getHash()));
            }
            assertTrue(get(http, URI.create(base + "/metrics"))
                    .body()
                    .contains("blockfilter_p2p_messages_received_total"));
            JsonNode filter1 = JSON.readTree(
                    get(http, URI.create(base + "/api/v1/filters/1")).body());
            assertEquals(1, filter1.path("height").asInt(), filter1.toString());
            assertTrue(filter1.path("active").asBoolean(), filter1.toString());

            String startLine = child.lines().stream()
                    .filter(l -> l.contains("event=start "))
                    .findFirst()
                    .orElseThrow();
            Path dataDir = Path.of(startLine.replaceAll(".* data_dir=(\\S+).*", "$1"));
            assertTrue(Files.isDirectory(dataDir), dataDir.toString());

            // 143 = 128 + SIGTERM, the JVM's code after its shutdown hooks ran; the hook deletes the data.
            assertEquals(143, child.terminate(TIMEOUT), "exit on SIGTERM:\n" + child.tail());
            assertTrue(child.lines().stream().noneMatch(l -> l.contains("close_failed")), child.tail());
            assertFalse(Files.exists(dataDir), "temporary data directory deleted: " + dataDir);
        }
    }

    private static HttpResponse<String> get(HttpClient http, URI uri) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
