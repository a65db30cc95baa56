package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.UpdateFlag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The legacy BIP 37 path over HTTP, replaying Bitcoin Core's merkle-block vectors (bloom_tests.cpp)
 * against the four vector blocks, which the test chain holds at heights 10..13.
 */
class Bip37ScanTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(60);

    private final RestTestChain chain = REST.chain();
    private final Client client = REST.client();

    private int heightOf(String blockHash) {
        for (int h = 0; h < chain.active.size(); h++) {
            if (chain.at(h).blockHash().toString().equals(blockHash)) {
                return h;
            }
        }
        throw new IllegalArgumentException(blockHash);
    }

    private JsonNode scan(byte[] filterload, int start, int stop) throws IOException {
        String body = "{\"filter\":\"" + RestTestChain.HEX.formatHex(filterload) + "\",\"startHeight\":" + start
                + ",\"stopHeight\":" + stop + "}";
        HttpResponse<byte[]> r =
                client.post("/api/v1/bip37/scan", body.getBytes(StandardCharsets.UTF_8), "application/json");
        assertEquals(200, r.statusCode(), () -> Client.text(r));
        return JSON.readTree(r.body());
    }

    @Test
    void merkleBlockVectorsReplayOverHttp() throws IOException {
        int checked = 0;
        for (JsonNode vector : chain.bloomVectors.get("merkle_blocks")) {
            int height = heightOf(vector.get("block_hash").asText());
            UpdateFlag flag = null;
            List<byte[]> inserted = new ArrayList<>();
            JsonNode built = null;
            for (JsonNode step : vector.get("steps")) {
                switch (step.get("op").asText()) {
                    case "new_filter" -> {
                        flag = UpdateFlag.ofWireValue(step.get("flags").asInt());
                        inserted.clear();
                    }
                    case "insert" ->
                        inserted.add(
                                RestTestChain.HEX.parseHex(step.get("data_hex").asText()));
                    case "build_merkleblock" -> {
                        // A fresh filter with every insert so far: the scan re-applies the update flags itself.
                        Bip37Filter f = Bip37Filter.create(10, 0.000001, 0, flag);
                        inserted.forEach(f::insert);
                        JsonNode result = scan(f.serialize(), height, height);
                        assertEquals(1, result.get("blocks").size());
                        built = result.get("blocks").get(0);
                        assertEquals(
                                vector.get("block_hash").asText(),
                                built.get("hash").asText());
                    }
                    case "expect_matched_count" -> {
                        assertEquals(
                                step.get("count").asInt(),
                                built.get("transactions").size(),
                                vector.get("name").asText());
                        checked++;
                    }
                    case "expect_matched_txid" -> {
                        byte[] tx = RestTestChain.HEX.parseHex(built.get("transactions")
                                .get(step.get("position").asInt())
                                .asText());
                        assertEquals(
                                step.get("txid").asText(),
                                Transaction.read(ByteBuffer.wrap(tx)).getTxId().toString());
                        checked++;
                    }
                    case "expect_serialized_merkleblock" -> {
                        assertEquals(
                                step.get("hex").asText(),
                                built.get("merkleBlock").asText());
                        checked++;
                    }
                    default -> {
                        // contains / expect_matched_index: filter internals, not visible over HTTP
                    }
                }
            }
        }
        assertTrue(checked >= 20, "checked " + checked);
    }

    @Test
    void everyScannedBlockGetsAMerkleBlockAndTheCostIsReported() throws IOException {
        Bip37Filter f = Bip37Filter.create(10, 0.000001, 0, UpdateFlag.UPDATE_ALL);
        f.insert(RestTestChain.HEX.parseHex("b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f1963"));
        JsonNode r = scan(f.serialize(), 0, 13);
        assertEquals(14, r.get("blocks").size());
        assertEquals(14, r.get("scannedBlocks").asInt());
        assertTrue(r.get("complete").asBoolean());
        assertTrue(r.get("cpuNanos").asLong() > 0);
        long bytes = 0;
        int matched = 0;
        for (JsonNode b : r.get("blocks")) {
            bytes += b.get("merkleBlock").asText().length() / 2;
            for (JsonNode tx : b.get("transactions")) {
                bytes += tx.asText().length() / 2;
                matched++;
            }
        }
        assertEquals(bytes, r.get("bytes").asLong());
        assertEquals(1, matched);
    }

    @Test
    void emptyFilterMatchesEverythingAsInCore() throws IOException {
        byte[] empty = RestTestChain.HEX.parseHex("00" + "00000000" + "00000000" + "00"); // no bits, no hash functions
        JsonNode r = scan(empty, 10, 10);
        assertEquals(9, r.get("blocks").get(0).get("transactions").size());
    }

    @Test
    void cpuBudgetStopsTheScanAndSaysWhereToContinue() throws IOException {
        try (RestServer tight = RestServer.start(
                RestConfig.defaults().withBip37CpuBudgetNanos(1),
                new InMemoryIndex(chain),
                new FakeNode(chain, 0, true))) {
            Client c = new Client(tight.baseUri());
            byte[] f = Bip37Filter.create(10, 0.01, 0, UpdateFlag.UPDATE_ALL).serialize();
            HttpResponse<byte[]> r = c.post(
                    "/api/v1/bip37/scan",
                    ("{\"filter\":\"" + RestTestChain.HEX.formatHex(f) + "\",\"startHeight\":0,\"stopHeight\":9}")
                            .getBytes(StandardCharsets.UTF_8),
                    "application/json");
            JsonNode j = JSON.readTree(r.body());
            assertFalse(j.get("complete").asBoolean());
            assertEquals(1, j.get("scannedBlocks").asInt());
            assertEquals(1, j.get("nextHeight").asInt());
        }
    }

    @Test
    void scansShowUpInMetrics() throws IOException {
        scan(Bip37Filter.create(10, 0.01, 0, UpdateFlag.UPDATE_NONE).serialize(), 0, 3);
        String metrics = Client.text(client.get("/metrics"));
        assertTrue(metrics.contains("blockfilter_bip37_scanned_blocks_total"), metrics);
        assertTrue(metrics.contains("blockfilter_bip37_cpu_seconds_total"));
        assertTrue(metrics.contains("blockfilter_bip37_payload_bytes_total"));
    }
}
