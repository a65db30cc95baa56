package org.blockfilter.regtest.embedded.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * Bitcoin Core's HTTP JSON-RPC transport for the embedded node, on 127.0.0.1: POST only, basic
 * authentication (401 without a body otherwise), JSON-RPC 1.0 and 2.0 requests and batches.
 * As Core does, a 1.0 error answers HTTP 500 (404 for an unknown method, 400 for an invalid
 * request) with the error object in the body; 2.0 answers 200 and omits the unused member.
 * Every failure becomes a JSON error object; nothing escapes as a bare 500.
 *
 * <p>Thread-safe. Calls run one at a time against the chain, holding its lock.
 */
public final class RpcServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Big enough for a 4 MB block in hex plus JSON framing. */
    private static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    private static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

    private final HttpServer server;
    private final ExecutorService executor;
    private final byte[] expectedAuthorization;
    private final RpcMethods methods;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Runnable onStop;

    private RpcServer(
            HttpServer server,
            ExecutorService executor,
            String user,
            String password,
            RpcMethods methods,
            Runnable onStop) {
        this.onStop = onStop;
        this.server = server;
        this.executor = executor;
        this.expectedAuthorization = ("Basic "
                        + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                .getBytes(StandardCharsets.UTF_8);
        this.methods = methods;
    }

    /**
     * Binds 127.0.0.1:{@code port} ({@code 0} for a free port) and starts serving {@code chain}.
     * {@code onStop} runs on its own thread when a client calls {@code stop}.
     */
    public static RpcServer start(Chain chain, int port, String user, String password, Runnable onStop)
            throws IOException {
        // The JDK server leaves Nagle's algorithm on unless this is set before its first use in
        // the JVM; each small answer then waits ~40 ms for the client's delayed ACK
        // (docs/benchmarks.md, indexing the embedded node). An explicit setting is respected.
        if (System.getProperty(NODELAY_PROPERTY) == null) {
            System.setProperty(NODELAY_PROPERTY, "true");
        }
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "embedded-node-rpc");
            t.setDaemon(true);
            return t;
        });
        RpcServer server = new RpcServer(http, executor, user, password, new RpcMethods(chain), onStop);
        http.createContext("/", server::handle);
        http.setExecutor(executor);
        http.start();
        return server;
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            respond(exchange);
        } finally {
            exchange.close();
            if (methods.stopRequested() && !closed.get()) {
                // Stop once the reply is out, on a thread of its own (closing joins this pool).
                Thread t = new Thread(onStop, "embedded-node-stop");
                t.setDaemon(true);
                t.start();
            }
        }
    }

    private void respond(HttpExchange exchange) throws IOException {
        if (!"POST".equals(exchange.getRequestMethod())) {
            send(exchange, 405, null);
            return;
        }
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth == null || !MessageDigest.isEqual(auth.getBytes(StandardCharsets.UTF_8), expectedAuthorization)) {
            exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"jsonrpc\"");
            send(exchange, 401, null);
            return;
        }
        byte[] body = readLimited(exchange.getRequestBody());
        if (body == null) {
            send(exchange, 413, error(NODES.nullNode(), RpcError.INVALID_REQUEST, "request too large", false));
            return;
        }
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (IOException e) {
            request = null;
        }
        if (request == null || request.isMissingNode()) {
            send(exchange, 500, error(NODES.nullNode(), RpcError.PARSE_ERROR, "Parse error", false));
            return;
        }
        if (request.isArray()) {
            ArrayNode replies = NODES.arrayNode();
            for (JsonNode r : request) {
                Reply reply = process(r);
                if (reply.body != null) {
                    replies.add(reply.body);
                }
            }
            send(exchange, 200, replies);
            return;
        }
        Reply reply = process(request);
        send(exchange, reply.body == null ? 204 : reply.status, reply.body);
    }

    private record Reply(int status, ObjectNode body) {}

    private Reply process(JsonNode request) {
        if (!request.isObject()) {
            return new Reply(400, error(NODES.nullNode(), RpcError.INVALID_REQUEST, "Invalid Request object", false));
        }
        boolean v2 = "2.0".equals(request.path("jsonrpc").asText(null));
        JsonNode id = request.has("id") ? request.get("id") : null;
        boolean notification = v2 && id == null;
        JsonNode idOrNull = id == null ? NODES.nullNode() : id;
        JsonNode method = request.get("method");
        if (method == null || !method.isTextual()) {
            return new Reply(v2 ? 200 : 400, error(idOrNull, RpcError.INVALID_REQUEST, "Method must be a string", v2));
        }
        JsonNode params = request.get("params");
        if (params != null && !params.isNull() && !params.isArray()) {
            return new Reply(
                    v2 ? 200 : 500,
                    error(
                            idOrNull,
                            RpcError.INVALID_PARAMS,
                            "Params must be an array (named parameters are not supported by the embedded node)",
                            v2));
        }
        ArrayNode args = params == null || params.isNull() ? NODES.arrayNode() : (ArrayNode) params;
        ObjectNode reply;
        int status = 200;
        try {
            JsonNode result = methods.call(method.asText(), args);
            reply = NODES.objectNode();
            if (v2) {
                reply.put("jsonrpc", "2.0");
            }
            reply.set("result", result);
            if (!v2) {
                reply.putNull("error");
            }
            reply.set("id", idOrNull);
        } catch (RpcError e) {
            reply = error(idOrNull, e.code(), e.getMessage(), v2);
            status = v2 ? 200 : statusFor(e.code());
        } catch (RejectedException e) {
            reply = error(idOrNull, e.rpcCode(), e.getMessage(), v2);
            status = v2 ? 200 : 500;
        } catch (RuntimeException e) {
            reply = error(idOrNull, RpcError.MISC_ERROR, String.valueOf(e.getMessage()), v2);
            status = v2 ? 200 : 500;
        }
        return new Reply(status, notification ? null : reply);
    }

    private static int statusFor(int code) {
        return switch (code) {
            case RpcError.INVALID_REQUEST -> 400;
            case RpcError.METHOD_NOT_FOUND -> 404;
            default -> 500;
        };
    }

    private static ObjectNode error(JsonNode id, int code, String message, boolean v2) {
        ObjectNode reply = NODES.objectNode();
        if (v2) {
            reply.put("jsonrpc", "2.0");
        } else {
            reply.putNull("result");
        }
        ObjectNode error = reply.putObject("error");
        error.put("code", code);
        error.put("message", message);
        reply.set("id", id);
        return reply;
    }

    private static byte[] readLimited(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        return body.length > MAX_BODY_BYTES ? null : body;
    }

    private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** Stops listening; idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
