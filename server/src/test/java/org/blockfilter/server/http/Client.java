package org.blockfilter.server.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small java.net.http client for the tests; responses keep their bytes. */
final class Client {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    Client(URI base) {
        this.base = base;
    }

    HttpResponse<byte[]> get(String path, String... headers) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET(), headers);
    }

    HttpResponse<byte[]> post(String path, byte[] body, String contentType) {
        return send(
                HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                "Content-Type",
                contentType);
    }

    HttpResponse<byte[]> method(String method, String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).method(method, HttpRequest.BodyPublishers.noBody()));
    }

    HttpResponse<byte[]> send(HttpRequest.Builder b, String... headers) {
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }
}
