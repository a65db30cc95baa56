package org.blockfilter.regtest.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JSON-RPC proxy on 127.0.0.1 (free port) in front of a real node that answers calls as its
 * {@link Rule} says: forwarded unchanged, replaced by another answer, or delayed. Counts the calls
 * it changed, by method. Thread-safe; the rule can be switched while the server under test runs.
 */
final class HostileRpcProxy implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One call as the proxy sees it; {@link #honest()} asks the node behind. */
    interface Call {
        String method();

        JsonNode params();

        /** The node's answer to this call (or to the same method with other params). */
        JsonNode honest(Object... params);
    }

    /** Decides an answer: null forwards the call unchanged, anything else is sent as the answer body. */
    @FunctionalInterface
    interface Rule {
        JsonNode answer(Call call);
    }

    static final Rule HONEST = call -> null;

    private final URI target;
    private final String authorization;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newHttpClient();
    private final Map<String, AtomicInteger> changed = new ConcurrentHashMap<>();
    private volatile Rule rule = HONEST;
    private volatile long delayMillis;

    HostileRpcProxy(URI target, String user, String password) throws IOException {
        this.target = target;
        this.authorization = "Basic "
                + java.util.Base64.getEncoder()
                        .encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    void rule(Rule rule) {
        this.rule = rule;
    }

    /** Every call waits this long before it is answered (0: none). */
    void delay(long millis) {
        this.delayMillis = millis;
    }

    int changed(String method) {
        AtomicInteger n = changed.get(method);
        return n == null ? 0 : n.get();
    }

    /** A JSON-RPC answer with this result. */
    static JsonNode result(Object result) {
        ObjectNode o = JSON.createObjectNode();
        o.set("result", JSON.valueToTree(result));
        o.putNull("error");
        o.put("id", 1);
        return o;
    }

    /** A JSON-RPC answer with this error object. */
    static JsonNode error(JsonNode error) {
        ObjectNode o = JSON.createObjectNode();
        o.putNull("result");
        o.set("error", error);
        o.put("id", 1);
        return o;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] requestBody = ex.getRequestBody().readAllBytes();
            long delay = delayMillis;
            if (delay > 0) {
                Thread.sleep(delay);
            }
            JsonNode request = JSON.readTree(requestBody);
            String method = request.path("method").asText();
            Call call = new Call() {
                @Override
                public String method() {
                    return method;
                }

                @Override
                public JsonNode params() {
                    return request.path("params");
                }

                @Override
                public JsonNode honest(Object... params) {
                    ObjectNode r = JSON.createObjectNode();
                    r.put("jsonrpc", "1.0");
                    r.put("id", 1);
                    r.put("method", method);
                    r.set("params", JSON.valueToTree(params));
                    try {
                        return JSON.readTree(forward(JSON.writeValueAsBytes(r)).body());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            JsonNode lie = rule.answer(call);
            byte[] body;
            int status;
            if (lie == null) {
                HttpResponse<byte[]> resp = forward(requestBody);
                body = resp.body();
                status = resp.statusCode();
            } else {
                ((ObjectNode) lie).set("id", request.get("id"));
                body = JSON.writeValueAsBytes(lie);
                status = 200;
                changed.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
            }
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            ex.sendResponseHeaders(502, -1);
        }
    }

    private HttpResponse<byte[]> forward(byte[] body) throws IOException {
        HttpRequest req = HttpRequest.newBuilder(target)
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            return client.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
