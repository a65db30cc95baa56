package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.read.IndexedFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Our /api/v1 endpoints end to end over HTTP, against an in-memory index of real filters. */
class ApiEndpointsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BINARY = "application/octet-stream";

    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(2100).nodeAhead(5);

    private final RestTestChain chain = REST.chain();
    private final Client client = REST.client();

    private static JsonNode json(HttpResponse<byte[]> r) throws IOException {
        return JSON.readTree(r.body());
    }

    @Test
    void statusReportsIndexAndNodeTips() throws IOException {
        HttpResponse<byte[]> r = client.get("/api/v1/status");
        assertEquals(200, r.statusCode());
        JsonNode s = json(r);
        assertEquals("regtest", s.get("network").asText());
        assertEquals(2099, s.get("indexedHeight").asInt());
        assertEquals(chain.tip().blockHash().toString(), s.get("indexedHash").asText());
        assertEquals(2104, s.get("nodeHeight").asInt());
        assertFalse(s.get("synced").asBoolean());
        assertEquals(
                "public, max-age=5", r.headers().firstValue("Cache-Control").orElseThrow());
    }

    @Test
    void filterByHashAndByHeightAreTheSameJson() throws IOException {
        IndexedFilter f = chain.at(6);
        JsonNode byHash = json(client.get("/api/v1/filters/" + f.blockHash()));
        JsonNode byHeight = json(client.get("/api/v1/filters/6"));
        assertEquals(byHash, byHeight);
        assertEquals(f.blockHash().toString(), byHash.get("blockHash").asText());
        assertEquals(6, byHash.get("height").asInt());
        assertEquals(
                chain.bip158Rows.get(6).get(5).asText(), byHash.get("filter").asText());
        assertEquals(
                chain.bip158Rows.get(6).get(6).asText(), byHash.get("header").asText());
        assertEquals(
                chain.bip158Rows.get(6).get(4).asText(),
                byHash.get("prevHeader").asText());
        assertEquals(f.filterHash().toString(), byHash.get("filterHash").asText());
        assertTrue(byHash.get("active").asBoolean());
    }

    @Test
    void filterInUppercaseHexIsFound() {
        assertEquals(
                200,
                client.get("/api/v1/filters/"
                                + chain.at(3).blockHash().toString().toUpperCase())
                        .statusCode());
    }

    @Test
    void binaryFilterIsTheSerializedFilterWithETagAndImmutableCaching() {
        IndexedFilter f = chain.at(8);
        HttpResponse<byte[]> r = client.get("/api/v1/filters/8", "Accept", BINARY);
        assertEquals(200, r.statusCode());
        assertArrayEquals(f.filter(), r.body());
        assertEquals(BINARY, r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(
                '"' + f.filterHash().toString() + '"',
                r.headers().firstValue("ETag").orElseThrow());
        assertEquals(
                "public, max-age=31536000, immutable",
                r.headers().firstValue("Cache-Control").orElseThrow());
    }

    @Test
    void binaryFilterIsNotGzippedEvenWhenTheClientAcceptsGzip() {
        HttpResponse<byte[]> r = client.get("/api/v1/filters/6", "Accept", BINARY, "Accept-Encoding", "gzip");
        assertTrue(r.headers().firstValue("Content-Encoding").isEmpty());
        assertArrayEquals(chain.at(6).filter(), r.body());
    }

    @Test
    void ifNoneMatchWithTheFilterHashGives304() {
        IndexedFilter f = chain.at(5);
        String etag = '"' + f.filterHash().toString() + '"';
        HttpResponse<byte[]> r = client.get("/api/v1/filters/" + f.blockHash(), "If-None-Match", etag);
        assertEquals(304, r.statusCode());
        assertEquals(0, r.body().length);
        assertEquals(etag, r.headers().firstValue("ETag").orElseThrow());
        HttpResponse<byte[]> other =
                client.get("/api/v1/filters/" + f.blockHash(), "If-None-Match", "\"" + "0".repeat(64) + "\"");
        assertEquals(200, other.statusCode());
    }

    @Test
    void filterNearTheTipGetsAShortMaxAge() {
        HttpResponse<byte[]> r = client.get("/api/v1/filters/" + (chain.tip().height() - 2));
        assertEquals(
                "public, max-age=5", r.headers().firstValue("Cache-Control").orElseThrow());
        HttpResponse<byte[]> buried =
                client.get("/api/v1/filters/" + (chain.tip().height() - 6));
        assertEquals(
                "public, max-age=31536000, immutable",
                buried.headers().firstValue("Cache-Control").orElseThrow());
    }

    @Test
    void staleFilterIsServedByHashAsInactive() throws IOException {
        JsonNode s = json(client.get("/api/v1/filters/" + chain.stale.blockHash()));
        assertFalse(s.get("active").asBoolean());
        assertEquals(chain.stale.filterHash().toString(), s.get("filterHash").asText());
    }

    @Test
    void heightBetweenIndexAndNodeTipIs503WithRetryAfter() throws IOException {
        HttpResponse<byte[]> r = client.get("/api/v1/filters/2101");
        assertEquals(503, r.statusCode());
        assertEquals("5", r.headers().firstValue("Retry-After").orElseThrow());
        assertEquals("index_behind", json(r).get("error").get("code").asText());
        HttpResponse<byte[]> byHash = client.get("/api/v1/filters/" + chain.unindexedButKnownToNode);
        assertEquals(503, byHash.statusCode());
    }

    @Test
    void filterRangeJsonAndBinaryFollowBip157() throws IOException {
        IndexedFilter stop = chain.at(1000 + 999);
        JsonNode r = json(client.get("/api/v1/filters?start_height=1000&stop_hash=" + stop.blockHash()));
        assertEquals(1000, r.get("filters").size());
        assertEquals(
                chain.at(1000).blockHash().toString(),
                r.get("filters").get(0).get("blockHash").asText());
        assertEquals(1999, r.get("filters").get(999).get("height").asInt());
        byte[] bin = client.get("/api/v1/filters?start_height=1000&stop_hash=" + stop.blockHash(), "Accept", BINARY)
                .body();
        ByteBuffer in = ByteBuffer.wrap(bin);
        for (int h = 1000; h <= 1999; h++) {
            byte[] hash = new byte[32];
            in.get(hash);
            assertEquals(chain.at(h).blockHash(), Sha256Hash.wrapReversed(hash));
            int len = in.get() & 0xff; // every test filter is shorter than 0xfd bytes
            byte[] filter = new byte[len];
            in.get(filter);
            assertArrayEquals(chain.at(h).filter(), filter);
        }
        assertFalse(in.hasRemaining());
    }

    @Test
    void filterRangeJsonIsNotGzippedByDefault() throws IOException {
        // gzip is opt-in (--http-compression gzip); HttpCompressionTest covers both settings.
        IndexedFilter stop = chain.at(500);
        HttpResponse<byte[]> r =
                client.get("/api/v1/filters?start_height=100&stop_hash=" + stop.blockHash(), "Accept-Encoding", "gzip");
        assertTrue(r.headers().firstValue("Content-Encoding").isEmpty());
        assertEquals(401, JSON.readTree(r.body()).get("filters").size());
    }

    @Test
    void filterHeadersMatchTheChainAndTheCfheadersLayout() throws IOException {
        IndexedFilter stop = chain.at(2010);
        JsonNode r = json(client.get("/api/v1/filter-headers?start_height=11&stop_hash=" + stop.blockHash()));
        assertEquals(chain.at(10).header().toString(), r.get("prevHeader").asText());
        assertEquals(2000, r.get("filterHashes").size());
        assertEquals(2000, r.get("headers").size());
        assertEquals(stop.header().toString(), r.get("headers").get(1999).asText());
        assertEquals(
                chain.at(11).filterHash().toString(),
                r.get("filterHashes").get(0).asText());
        byte[] bin = client.get(
                        "/api/v1/filter-headers?start_height=11&stop_hash=" + stop.blockHash(), "Accept", BINARY)
                .body();
        assertEquals(32 + 3 + 2000 * 32, bin.length);
        assertEquals(chain.at(10).header(), Sha256Hash.wrapReversed(Arrays.copyOfRange(bin, 0, 32)));
        assertArrayEquals(new byte[] {(byte) 0xfd, (byte) 0xd0, 0x07}, Arrays.copyOfRange(bin, 32, 35));
        assertEquals(chain.at(11).filterHash(), Sha256Hash.wrapReversed(Arrays.copyOfRange(bin, 35, 67)));
    }

    @Test
    void vectorHeadersChainWhereTheVectorsAreConsecutive() throws IOException {
        // Vector rows 1 and 2 are testnet blocks 2 and 3: row 2's prev header is row 1's header.
        JsonNode r = json(client.get(
                "/api/v1/filter-headers?start_height=2&stop_hash=" + chain.at(2).blockHash()));
        assertEquals(
                chain.bip158Rows.get(1).get(6).asText(), r.get("prevHeader").asText());
        assertEquals(
                chain.bip158Rows.get(2).get(6).asText(), r.get("headers").get(0).asText());
        assertEquals(
                RestTestChain.header(chain.at(2).filterHash(), chain.at(1).header()),
                chain.at(2).header());
    }

    @Test
    void checkpointsAreTheHeadersEvery1000Blocks() throws IOException {
        JsonNode tip = json(client.get("/api/v1/checkpoints"));
        assertEquals(chain.tip().blockHash().toString(), tip.get("stopHash").asText());
        assertEquals(2, tip.get("checkpoints").size());
        assertEquals(
                chain.at(1000).header().toString(),
                tip.get("checkpoints").get(0).asText());
        assertEquals(
                chain.at(2000).header().toString(),
                tip.get("checkpoints").get(1).asText());
        JsonNode upTo1500 = json(
                client.get("/api/v1/checkpoints?stop_hash=" + chain.at(1500).blockHash()));
        assertEquals(1, upTo1500.get("checkpoints").size());
        byte[] bin = client.get("/api/v1/checkpoints", "Accept", BINARY).body();
        assertEquals(1 + 64, bin.length);
        assertEquals(2, bin[0]);
        assertEquals(chain.at(2000).header(), Sha256Hash.wrapReversed(Arrays.copyOfRange(bin, 33, 65)));
    }

    @Test
    void headersAreThe80ByteBlockHeadersAndStopAtTheTip() throws IOException {
        byte[] bin = client.get("/api/v1/headers?start_height=2095&count=10", "Accept", BINARY)
                .body();
        assertEquals(5 * 80, bin.length);
        assertEquals(chain.at(2095).blockHash(), RestTestChain.hashOfHeader(Arrays.copyOf(bin, 80)));
        JsonNode j = json(client.get("/api/v1/headers?start_height=0&count=2"));
        assertEquals(
                chain.bip158Rows.get(0).get(2).asText().substring(0, 160),
                j.get("headers").get(0).asText());
    }

    @Test
    void rawBlockComesFromTheNode() throws IOException {
        IndexedFilter f = chain.at(7);
        HttpResponse<byte[]> bin = client.get("/api/v1/blocks/" + f.blockHash(), "Accept", BINARY);
        assertArrayEquals(chain.rawBlocks.get(f.blockHash()), bin.body());
        JsonNode j = json(client.get("/api/v1/blocks/" + f.blockHash()));
        assertEquals(7, j.get("height").asInt());
        assertEquals(chain.bip158Rows.get(7).get(2).asText(), j.get("block").asText());
        JsonNode stale = json(client.get("/api/v1/blocks/" + chain.stale.blockHash()));
        assertTrue(stale.get("height").isNull());
    }

    @Test
    void transactionIsRelayedFromBinaryOrJson() throws IOException {
        byte[] tx = RestTestChain.HEX.parseHex(
                chain.bloomVectors.get("bloom_match").get("tx_hex").asText());
        String txid = chain.bloomVectors.get("bloom_match").get("txid").asText();
        HttpResponse<byte[]> bin = client.post("/api/v1/transactions", tx, BINARY);
        assertEquals(200, bin.statusCode(), Client.text(bin));
        assertEquals(txid, json(bin).get("txid").asText());
        HttpResponse<byte[]> js = client.post(
                "/api/v1/transactions",
                ("{\"hex\":\"" + RestTestChain.HEX.formatHex(tx) + "\"}").getBytes(StandardCharsets.US_ASCII),
                "application/json");
        assertEquals(txid, json(js).get("txid").asText());
    }

    @Test
    void corsAllowsBrowsersAndExposesETag() {
        HttpResponse<byte[]> r = client.get("/api/v1/filters/1", "Origin", "https://wallet.example");
        assertEquals("*", r.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(r.headers()
                .firstValue("Access-Control-Expose-Headers")
                .orElseThrow()
                .contains("ETag"));
    }

    @Test
    void corsPreflightForAJsonPostIsAllowed() {
        HttpResponse<byte[]> r = client.send(
                java.net.http.HttpRequest.newBuilder(REST.server().baseUri().resolve("/api/v1/bip37/scan"))
                        .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody()),
                "Origin",
                "https://wallet.example",
                "Access-Control-Request-Method",
                "POST",
                "Access-Control-Request-Headers",
                "content-type");
        assertTrue(r.statusCode() == 200 || r.statusCode() == 204, () -> r.statusCode() + " " + Client.text(r));
        assertEquals("*", r.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(r.headers()
                .firstValue("Access-Control-Allow-Methods")
                .orElseThrow()
                .contains("POST"));
    }

    @Test
    void unreachableNodeLeavesStatusUpWithNullNodeHeight() throws IOException {
        try (RestServer down =
                RestServer.start(RestConfig.defaults(), new InMemoryIndex(chain), new FakeNode(chain, 0, false))) {
            Client c = new Client(down.baseUri());
            JsonNode s = json(c.get("/api/v1/status"));
            assertTrue(s.get("nodeHeight").isNull());
            assertFalse(s.get("synced").asBoolean());
            HttpResponse<byte[]> block = c.get("/api/v1/blocks/" + chain.at(1).blockHash());
            assertEquals(503, block.statusCode());
            assertEquals(
                    "node_unavailable", json(block).get("error").get("code").asText());
            assertNull(json(c.get("/api/v1/filters/3")).get("error"));
        }
    }

    @Test
    void feeEstimatesAnswerForTheDocumentedTargetsOrTheOneAsked() throws IOException {
        HttpResponse<byte[]> r = client.get("/api/v1/fee-estimates");
        assertEquals(200, r.statusCode(), () -> Client.text(r));
        JsonNode all = json(r);
        assertEquals("estimatesmartfee", all.get("source").asText());
        JsonNode e = all.get("estimates");
        assertEquals(7, e.size());
        int[] targets = {1, 2, 3, 6, 12, 24, 144};
        for (int i = 0; i < targets.length; i++) {
            assertEquals(targets[i], e.get(i).get("target").asInt());
        }
        assertEquals(27.5, e.get(0).get("satPerVByte").asDouble());
        assertEquals(2, e.get(0).get("blocks").asInt(), "Core answers target 1 for 2 blocks");
        assertTrue(e.get(0).get("error").isNull());

        JsonNode one = json(client.get("/api/v1/fee-estimates?target=500"));
        assertEquals(1, one.get("estimates").size());
        JsonNode none = one.get("estimates").get(0);
        assertEquals(500, none.get("target").asInt());
        assertTrue(none.get("satPerVByte").isNull());
        assertEquals("Insufficient data or no feerate found", none.get("error").asText());
    }
}
