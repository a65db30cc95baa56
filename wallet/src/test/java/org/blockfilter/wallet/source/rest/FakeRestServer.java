package org.blockfilter.wallet.source.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A local HTTP server (127.0.0.1, free port) that answers each path-with-query with a canned
 * response, so tests can serve recorded, constructed and malformed answers. One per test.
 */
final class FakeRestServer implements AutoCloseable {

    /** A canned answer. {@code chunked} streams the body without a Content-Length. */
    record Answer(
            int status, String contentType, byte[] body, Map<String, String> headers, boolean chunked, boolean hang) {
        static Answer binary(byte[] body) {
            return new Answer(200, "application/octet-stream", body, Map.of(), false, false);
        }

        static Answer json(int status, String json) {
            return new Answer(
                    status, "application/json", json.getBytes(StandardCharsets.UTF_8), Map.of(), false, false);
        }

        static Answer hanging() {
            return new Answer(200, "application/octet-stream", new byte[0], Map.of(), false, true);
        }

        Answer chunkedBody() {
            return new Answer(status, contentType, body, headers, true, hang);
        }

        Answer withHeader(String name, String value) {
            Map<String, String> h = new java.util.HashMap<>(headers);
            h.put(name, value);
            return new Answer(status, contentType, body, Map.copyOf(h), chunked, hang);
        }
    }

    /** What the last request looked like, for tests that check the request. */
    record Seen(String method, String accept, String contentType, String userAgent, byte[] body) {}

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    private final CountDownLatch release = new CountDownLatch(1);

    FakeRestServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    FakeRestServer answer(String pathAndQuery, Answer answer) {
        answers.put(pathAndQuery, answer);
        return this;
    }

    Seen seen(String pathAndQuery) {
        return seen.get(pathAndQuery);
    }

    private void handle(HttpExchange ex) throws IOException {
        String key = ex.getRequestURI().getRawPath()
                + (ex.getRequestURI().getRawQuery() == null
                        ? ""
                        : "?" + ex.getRequestURI().getRawQuery());
        byte[] requestBody = ex.getRequestBody().readAllBytes();
        seen.put(
                key,
                new Seen(
                        ex.getRequestMethod(),
                        ex.getRequestHeaders().getFirst("Accept"),
                        ex.getRequestHeaders().getFirst("Content-Type"),
                        ex.getRequestHeaders().getFirst("User-Agent"),
                        requestBody));
        Answer a = answers.getOrDefault(
                key,
                Answer.json(
                        404,
                        "{\"error\":{\"status\":404,\"code\":\"not_found\",\"message\":\"no route " + key + "\"}}"));
        try (ex) {
            if (a.hang()) {
                release.await();
                return;
            }
            ex.getResponseHeaders().set("Content-Type", a.contentType());
            a.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
            ex.sendResponseHeaders(a.status(), a.chunked() ? 0 : (a.body().length == 0 ? -1 : a.body().length));
            try (OutputStream out = ex.getResponseBody()) {
                out.write(a.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // The client gave up (size limit or timeout): expected in those tests.
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
