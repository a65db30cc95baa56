package org.blockfilter.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JSON-RPC 1.0 over HTTP with basic authentication, in the dialect Bitcoin Core, btcd and our
 * embedded node share. Every request carries {@code "jsonrpc":"1.0"} and a non-null numeric id,
 * because btcd ignores requests without them. Every call has a timeout.
 *
 * <p>Immutable and thread-safe. Parameters may contain nulls only where the node accepts them.
 */
public final class JsonRpcClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final String authorization;
    private final Duration timeout;
    private final HttpClient http;
    private final AtomicLong ids = new AtomicLong();

    private JsonRpcClient(URI endpoint, String user, String password, Duration timeout) {
        this.endpoint = endpoint;
        this.authorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** A client for {@code endpoint} (e.g. {@code http://127.0.0.1:18443}) with explicit credentials. */
    public static JsonRpcClient create(URI endpoint, String user, String password, Duration timeout) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(timeout, "timeout");
        return new JsonRpcClient(stripUserInfo(endpoint), user, password, timeout);
    }

    /**
     * A client from a URL that carries its credentials, {@code http://user:pass@host:port}, as
     * the server's {@code --node} option takes it. User and password are URL-decoded.
     *
     * @throws IllegalArgumentException if the URL has no user info or is not http(s)
     */
    public static JsonRpcClient fromUrl(URI url, Duration timeout) {
        String info = url.getRawUserInfo();
        if (info == null || !info.contains(":")) {
            throw new IllegalArgumentException(
                    "node URL needs credentials, as http://user:pass@host:port: " + redact(url));
        }
        int colon = info.indexOf(':');
        return create(url, decode(info.substring(0, colon)), decode(info.substring(colon + 1)), timeout);
    }

    /**
     * A client that authenticates with a Bitcoin Core cookie file ({@code __cookie__:password},
     * written by the node at start).
     */
    public static JsonRpcClient fromCookieFile(URI endpoint, Path cookieFile, Duration timeout) throws IOException {
        String cookie = Files.readString(cookieFile, StandardCharsets.UTF_8).trim();
        int colon = cookie.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("cookie file " + cookieFile + " is not of the form user:password");
        }
        return create(endpoint, cookie.substring(0, colon), cookie.substring(colon + 1), timeout);
    }

    /** The endpoint without credentials, safe to log. */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * Calls {@code method} with positional {@code params} (Strings, numbers, booleans, or Jackson
     * nodes) and returns the {@code result} member, which may be a JSON null.
     *
     * @throws RpcException if the node returned an error object or the call failed
     */
    public JsonNode call(String method, Object... params) {
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "1.0");
        request.put("id", ids.incrementAndGet());
        request.put("method", method);
        ArrayNode array = request.putArray("params");
        for (Object p : params) {
            array.add(JSON.valueToTree(p));
        }
        HttpResponse<byte[]> response;
        try {
            HttpRequest httpRequest = HttpRequest.newBuilder(endpoint)
                    .timeout(timeout)
                    .header("Authorization", authorization)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(request)))
                    .build();
            response = http.send(httpRequest, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new RpcException(method, RpcException.TRANSPORT, "cannot reach node at " + endpoint + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(method, RpcException.TRANSPORT, "interrupted", e);
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        // Bitcoin Core answers RPC errors with HTTP 404/500 and a JSON body; read the body first.
        if (body != null && body.isObject()) {
            JsonNode error = body.get("error");
            if (error != null && !error.isNull()) {
                int code = error.path("code").asInt(RpcException.TRANSPORT);
                throw new RpcException(method, code, error.path("message").asText(error.toString()), null);
            }
            if (response.statusCode() == 200 && body.has("result")) {
                return body.get("result");
            }
        }
        throw new RpcException(
                method,
                RpcException.TRANSPORT,
                "HTTP " + response.statusCode() + " from " + endpoint
                        + (response.statusCode() == 401 ? " (bad credentials)" : ""),
                null);
    }

    private static URI stripUserInfo(URI uri) {
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new IllegalArgumentException("node URL must be http or https: " + redact(uri));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("node URL has no host: " + redact(uri));
        }
        return URI.create(scheme + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null ? "" : uri.getRawPath()));
    }

    private static String redact(URI uri) {
        return uri.getRawUserInfo() == null ? uri.toString() : uri.toString().replace(uri.getRawUserInfo(), "***");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
