package org.blockfilter.regtest.wallet;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on 127.0.0.1 (free port) in front of one of our REST servers that forwards every
 * request and answer unchanged, except that in each binary {@code /api/v1/filter-headers} answer
 * covering {@code lieHeight} it flips one bit of the filter hash at that height: the smallest lie a
 * server can tell about a filter header. Counts the answers it falsified.
 */
final class LyingProxy implements AutoCloseable {
    private final URI target;
    private final int lieHeight;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicInteger lies = new AtomicInteger();

    LyingProxy(URI target, int lieHeight) throws IOException {
        this.target = target;
        this.lieHeight = lieHeight;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    int lies() {
        return lies.get();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            URI uri = ex.getRequestURI();
            String pathAndQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            byte[] requestBody = ex.getRequestBody().readAllBytes();
            HttpRequest.Builder req = HttpRequest.newBuilder(target.resolve(pathAndQuery))
                    .method(ex.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(requestBody));
            for (String h : new String[] {"Accept", "Content-Type"}) {
                String v = ex.getRequestHeaders().getFirst(h);
                if (v != null) {
                    req.header(h, v);
                }
            }
            HttpResponse<byte[]> resp = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
            byte[] body = resp.body();
            String type = resp.headers().firstValue("Content-Type").orElse("application/octet-stream");
            if (uri.getRawPath().equals("/api/v1/filter-headers")
                    && resp.statusCode() == 200
                    && type.startsWith("application/octet-stream")) {
                body = lie(uri.getRawQuery(), body);
            }
            ex.getResponseHeaders().set("Content-Type", type);
            ex.sendResponseHeaders(resp.statusCode(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** prevHeader (32) + CompactSize count + count x 32-byte filter hashes: flip a bit of the one at lieHeight. */
    private byte[] lie(String query, byte[] body) {
        int start = -1;
        for (String kv : query.split("&")) {
            if (kv.startsWith("start_height=")) {
                start = Integer.parseInt(kv.substring("start_height=".length()));
            }
        }
        int first = body[32] & 0xff;
        int count = first < 0xfd ? first : (body[33] & 0xff) | (body[34] & 0xff) << 8;
        int countBytes = first < 0xfd ? 1 : 3;
        if (start < 0 || lieHeight < start || lieHeight >= start + count) {
            return body;
        }
        byte[] out = body.clone();
        out[32 + countBytes + (lieHeight - start) * 32] ^= 1;
        lies.incrementAndGet();
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
