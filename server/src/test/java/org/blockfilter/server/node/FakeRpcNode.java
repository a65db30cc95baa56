package org.blockfilter.server.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;

/**
 * A Core-dialect JSON-RPC endpoint on loopback for tests, and an {@link RpcNodeGateway} to it.
 * Each call goes to a {@link Handler} that puts a {@code result} or an {@code error} into the
 * answer; an answer with an error goes with HTTP 500, as Core sends it. Closing stops it.
 */
public final class FakeRpcNode implements AutoCloseable {
    /** Answers one call; leaves neither result nor error for a method the fake does not have. */
    @FunctionalInterface
    public interface Handler {
        void answer(String method, JsonNode params, ObjectNode answer) throws IOException;
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer http;

    private FakeRpcNode(HttpServer http) {
        this.http = http;
    }

    public static FakeRpcNode start(Handler handler) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", exchange -> {
            JsonNode req = JSON.readTree(exchange.getRequestBody().readAllBytes());
            ObjectNode res = JSON.createObjectNode().put("id", req.get("id").asLong());
            handler.answer(req.get("method").asText(), req.get("params"), res);
            if (!res.has("result") && !res.has("error")) {
                error(res, -32601, "Method not found");
            }
            byte[] body = JSON.writeValueAsBytes(res);
            exchange.sendResponseHeaders(res.has("error") ? 500 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        return new FakeRpcNode(http);
    }

    /** Puts Core's error object into the answer. */
    public static void error(ObjectNode answer, int code, String message) {
        answer.putObject("error").put("code", code).put("message", message);
    }

    /** A gateway to this node that caches the height for an hour and waits {@code acceptWait} for relayed transactions. */
    public RpcNodeGateway gateway(Duration acceptWait) {
        URI uri = URI.create("http://127.0.0.1:" + http.getAddress().getPort());
        return new RpcNodeGateway(
                new BitcoinRpc(JsonRpcClient.create(uri, "u", "p", Duration.ofSeconds(5))),
                Duration.ofHours(1),
                acceptWait);
    }

    @Override
    public void close() {
        http.stop(0);
    }
}
