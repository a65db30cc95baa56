package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With the node unreachable, the server serves what it has indexed, and a height above the index
 * tip is a 503 with Retry-After (the block may well exist), not a 404 {@code unknown_height}.
 */
class NodeUnreachableTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(60).nodeUnreachable();

    private final Client client = REST.client();

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(
            strings = {
                "/api/v1/filters/60",
                "/api/v1/filters/5000",
                "/api/v1/headers?start_height=61&count=1",
                "/api/v1/fee-estimates",
                "/api/v1/fee-estimates?target=6"
            })
    void heightAboveTheIndexIs503WithRetryAfter(String path) throws IOException {
        HttpResponse<byte[]> r = client.get(path);
        assertEquals(503, r.statusCode(), () -> Client.text(r));
        assertEquals("5", r.headers().firstValue("Retry-After").orElseThrow());
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertEquals(503, e.get("status").asInt());
        assertEquals("node_unavailable", e.get("code").asText());
    }

    @Test
    void bip37ScanAboveTheIndexIs503WithRetryAfter() throws IOException {
        HttpResponse<byte[]> r = client.post(
                "/api/v1/bip37/scan",
                "{\"filter\":\"0100000000000000000001\",\"startHeight\":55,\"stopHeight\":70}"
                        .getBytes(StandardCharsets.UTF_8),
                "application/json");
        assertEquals(503, r.statusCode(), () -> Client.text(r));
        assertEquals("5", r.headers().firstValue("Retry-After").orElseThrow());
        assertEquals(
                "node_unavailable",
                JSON.readTree(r.body()).get("error").get("code").asText());
    }

    @Test
    void indexedFiltersAreStillServed() {
        HttpResponse<byte[]> r = client.get("/api/v1/filters/59", "Accept", "application/octet-stream");
        assertEquals(200, r.statusCode());
        assertArrayEquals(REST.chain().at(59).filter(), r.body());
    }
}
