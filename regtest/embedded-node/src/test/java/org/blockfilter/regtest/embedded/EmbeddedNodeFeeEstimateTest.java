package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * {@code estimatesmartfee} answers as Bitcoin Core does with no fee history (this node keeps none):
 * no feerate, Core's error text and {@code blocks} 0; Core's errors for a bad target or mode.
 */
class EmbeddedNodeFeeEstimateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode call(EmbeddedNode node, String params) throws Exception {
        String auth = Base64.getEncoder()
                .encodeToString((node.rpcUser() + ":" + node.rpcPassword()).getBytes(StandardCharsets.UTF_8));
        HttpRequest req = HttpRequest.newBuilder(node.rpcUri())
                .header("Authorization", "Basic " + auth)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"estimatesmartfee\",\"params\":" + params + "}"))
                .build();
        HttpResponse<String> r = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    @Test
    void answersAsCoreWithNoFeeHistory() throws Exception {
        try (EmbeddedNode node = EmbeddedNode.start()) {
            for (String params : new String[] {"[6]", "[1]", "[1008, \"conservative\"]", "[2, \"ECONOMICAL\"]"}) {
                JsonNode r = call(node, params).get("result");
                assertEquals(
                        "Insufficient data or no feerate found",
                        r.get("errors").get(0).asText(),
                        params);
                assertEquals(0, r.get("blocks").asInt(), params);
                assertTrue(r.get("feerate") == null, params);
            }
        }
    }

    @Test
    void badTargetOrModeGetsCoresErrors() throws Exception {
        try (EmbeddedNode node = EmbeddedNode.start()) {
            for (String params : new String[] {"[0]", "[1009]", "[-1]"}) {
                JsonNode e = call(node, params).get("error");
                assertEquals(-8, e.get("code").asInt(), params);
                assertEquals(
                        "Invalid conf_target, must be between 1 and 1008",
                        e.get("message").asText());
            }
            JsonNode mode = call(node, "[6, \"fast\"]").get("error");
            assertEquals(-8, mode.get("code").asInt());
            assertTrue(mode.get("message").asText().startsWith("Invalid estimate_mode parameter"));
            assertEquals(-3, call(node, "[\"six\"]").get("error").get("code").asInt());
        }
    }
}
