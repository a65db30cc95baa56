package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /api/v1/demo/faucet}: outside demo mode a JSON 404; in demo mode the body is read
 * and checked here, the faucet's refusals become JSON 400s with its code, and a payment is
 * answered with txid and height. The real faucet behind it is tested in the embedded node
 * (LiveDemoTest) and end to end (the README quick-start test).
 */
class DemoFaucetRouteTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RestServerExtension REST = RestServerExtension.ofChain(60);

    private RestServer demo;

    @AfterEach
    void stop() {
        if (demo != null) {
            demo.close();
        }
    }

    private static byte[] body(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode error(HttpResponse<byte[]> r, int status) throws IOException {
        assertEquals(status, r.statusCode(), Client.text(r));
        JsonNode e = JSON.readTree(r.body()).path("error");
        assertEquals(status, e.path("status").asInt(), Client.text(r));
        return e;
    }

    @Test
    void outsideDemoModeTheFaucetIsAJson404() throws IOException {
        HttpResponse<byte[]> r = REST.client()
                .post("/api/v1/demo/faucet", body("{\"address\":\"bcrt1q\",\"amount\":\"1\"}"), "application/json");
        JsonNode e = error(r, 404);
        assertEquals("not_demo_mode", e.path("code").asText());
    }

    @Test
    void inDemoModeBadBodiesAndRefusalsAreJson400sAndAPaymentIsAnswered() throws IOException {
        List<String> calls = new CopyOnWriteArrayList<>();
        Faucet faucet = (address, amount) -> {
            calls.add(address + " " + amount);
            if (address.equals("tb1qother")) {
                throw new Faucet.RefusedException("wrong_network", "address tb1qother is a testnet address");
            }
            return new Faucet.Payment("ab".repeat(32), 7, amount, address);
        };
        demo = RestServer.start(
                RestConfig.defaults(),
                new InMemoryIndex(REST.chain()),
                new FakeNode(REST.chain(), 0, true),
                Optional.of(faucet));
        Client client = new Client(demo.baseUri());

        assertEquals(
                "bad_json",
                error(client.post("/api/v1/demo/faucet", body("not json"), "application/json"), 400)
                        .path("code")
                        .asText());
        JsonNode missing =
                error(client.post("/api/v1/demo/faucet", body("{\"address\":\"bcrt1qx\"}"), "application/json"), 400);
        assertEquals("bad_json", missing.path("code").asText());
        assertEquals(true, missing.path("message").asText().contains("\"amount\" is missing"), missing.toString());
        assertEquals(
                "bad_json",
                error(
                                client.post(
                                        "/api/v1/demo/faucet",
                                        body("{\"address\":5,\"amount\":\"1\"}"),
                                        "application/json"),
                                400)
                        .path("code")
                        .asText());
        JsonNode refused = error(
                client.post(
                        "/api/v1/demo/faucet",
                        body("{\"address\":\"tb1qother\",\"amount\":\"1\"}"),
                        "application/json"),
                400);
        assertEquals("wrong_network", refused.path("code").asText());
        assertEquals(
                "address tb1qother is a testnet address",
                refused.path("message").asText());

        HttpResponse<byte[]> ok = client.post(
                "/api/v1/demo/faucet", body("{\"address\":\"bcrt1qme\",\"amount\":1.25}"), "application/json");
        assertEquals(200, ok.statusCode(), Client.text(ok));
        JsonNode paid = JSON.readTree(ok.body());
        assertEquals("ab".repeat(32), paid.path("txid").asText());
        assertEquals(7, paid.path("height").asInt());
        assertEquals("1.25", paid.path("amount").asText(), "a JSON number is read as written");
        assertEquals(List.of("tb1qother 1", "bcrt1qme 1.25"), calls, "bad bodies never reach the faucet");
    }
}
