package org.blockfilter.server.rpc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JSON-RPC 1.0 over HTTP with basic authentication, in the dialect Bitcoin Core, btcd and our
 * embedded node share. Every request carries {@code "jsonrpc":"1.0"} and a non-null numeric id,
 * because btcd ignores requests without them. Requests are plain HTTP/1.1: the JDK client's
 * default would offer an HTTP/2 upgrade ({@code Upgrade: h2c}), which HTTP/1.1-only JSON-RPC
 * servers answer by closing the connection. Every call has a timeout covering the whole answer,
 * and answers larger than {@link #MAX_ANSWER_BYTES} are refused unread; an answer that is not a
 * JSON object with a {@code result} or {@code error} member is an {@link RpcException} that says
 * what came back.
 *
 * <p>Threads: a call runs on the caller's thread ({@code HttpClient.send}); the HTTP client's own
 * tasks run on at most {@value #HTTP_THREADS} threads of this client, which end after 30 s idle,
 * and at {@link #close} as soon as they are idle. Not {@code sendAsync}: the JDK 17 client hands
 * each of its answers on to CompletableFuture's default pool, which on a machine with fewer than
 * three cores starts a new thread for every task, whatever executor the client was given.
 *
 * <p>Thread-safe. Parameters may contain nulls only where the node accepts them.
 */
public final class JsonRpcClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** For a member read out of a larger stream, where trailing tokens are the rest of the answer. */
    private static final ObjectMapper STREAM = new ObjectMapper();
    /**
     * The largest answer read: {@code getblock hash 0} of a block at the 4,000,000 weight-unit limit
     * is at most 8 MB of hex, plus JSON framing; twice that leaves room for any node's dialect.
     */
    public static final int MAX_ANSWER_BYTES = 16 << 20;

    /** The most threads the HTTP client runs its tasks on (reading answers, completing exchanges). */
    static final int HTTP_THREADS = 2;
    /** How long an idle HTTP client thread waits for work before it ends. */
    private static final long IDLE_THREAD_SECONDS = 30;

    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final URI endpoint;
    private final String authorization;
    private final Duration timeout;
    private final String threadNamePrefix;
    private final ThreadPoolExecutor executor;
    private final HttpClient http;
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closed;

    private JsonRpcClient(URI endpoint, String user, String password, Duration timeout) {
        this.endpoint = endpoint;
        this.authorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.threadNamePrefix = "jsonrpc-" + CLIENTS.incrementAndGet() + "-http-";
        AtomicInteger threads = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(
                HTTP_THREADS, HTTP_THREADS, IDLE_THREAD_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, threadNamePrefix + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .executor(executor)
                .build();
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
        HttpResponse<byte[]> response = send(method, request(method, params), MAX_ANSWER_BYTES);
        return resultOf(method, response);
    }

    /** Reads a {@code result} member from a parser positioned on its first token. */
    @FunctionalInterface
    public interface ResultReader<T> {
        T read(JsonParser parser) throws IOException;
    }

    /**
     * Like {@link #call}, for answers too large to hold as a tree: reads up to {@code
     * maxAnswerBytes} and hands the {@code result} member to {@code reader} as a token stream, so
     * only what the reader keeps stays on the heap.
     *
     * @throws RpcException if the node returned an error object, the call failed, or the reader
     *     found the result malformed
     */
    public <T> T call(String method, int maxAnswerBytes, ResultReader<T> reader, Object... params) {
        HttpResponse<byte[]> response = send(method, request(method, params), maxAnswerBytes);
        T result = null;
        boolean hasResult = false;
        JsonNode error = null;
        try (JsonParser parser = JSON.getFactory().createParser(response.body())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                resultOf(method, response); // not an object: throws, naming what came back
                throw new RpcException(method, RpcException.TRANSPORT, "no result from " + endpoint, null);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals("result") && value != JsonToken.VALUE_NULL) {
                    result = reader.read(parser);
                    hasResult = true;
                } else if (name.equals("result")) {
                    hasResult = true;
                } else if (name.equals("error") && value != JsonToken.VALUE_NULL) {
                    error = STREAM.readTree(parser);
                } else {
                    parser.skipChildren();
                }
            }
        } catch (IOException e) {
            if (error == null) {
                throw new RpcException(method, RpcException.TRANSPORT, notJson(response, firstLine(e.getMessage())), e);
            }
        }
        if (error != null) {
            int code = error.path("code").canConvertToInt() ? error.path("code").asInt() : RpcException.TRANSPORT;
            throw new RpcException(method, code, RpcAnswers.errorMessage(error), null);
        }
        if (response.statusCode() != 200 || !hasResult) {
            resultOf(method, response); // throws, naming the HTTP status or what came back
            throw new RpcException(method, RpcException.TRANSPORT, "no result from " + endpoint, null);
        }
        return result;
    }

    private ObjectNode request(String method, Object... params) {
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "1.0");
        request.put("id", ids.incrementAndGet());
        request.put("method", method);
        ArrayNode array = request.putArray("params");
        for (Object p : params) {
            array.add(JSON.valueToTree(p));
        }
        return request;
    }

    private JsonNode resultOf(String method, HttpResponse<byte[]> response) {
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new RpcException(method, RpcException.TRANSPORT, notJson(response, firstLine(e.getMessage())), e);
        }
        // Bitcoin Core answers RPC errors with HTTP 404/500 and a JSON body; read the body first.
        if (body != null && body.isObject()) {
            JsonNode error = body.get("error");
            if (error != null && !error.isNull()) {
                int code = error.path("code").canConvertToInt()
                        ? error.path("code").asInt()
                        : RpcException.TRANSPORT;
                throw new RpcException(method, code, RpcAnswers.errorMessage(error), null);
            }
            if (response.statusCode() == 200 && body.has("result")) {
                return body.get("result");
            }
        }
        if (response.statusCode() != 200) {
            throw new RpcException(
                    method,
                    RpcException.TRANSPORT,
                    "HTTP " + response.statusCode() + " from " + endpoint
                            + (response.statusCode() == 401 ? " (bad credentials)" : ""),
                    null);
        }
        throw new RpcException(
                method,
                RpcException.TRANSPORT,
                "invalid answer from " + endpoint + ": expected a JSON object with a result member, got "
                        + RpcAnswers.describe(body),
                null);
    }

    private HttpResponse<byte[]> send(String method, ObjectNode request, int maxAnswerBytes) {
        if (closed) {
            throw new RpcException(method, RpcException.TRANSPORT, "the client of " + endpoint + " is closed", null);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest httpRequest;
        try {
            httpRequest = HttpRequest.newBuilder(endpoint)
                    .timeout(timeout)
                    .header("Authorization", authorization)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(request)))
                    .build();
        } catch (IOException e) {
            throw new RpcException(method, RpcException.TRANSPORT, "cannot encode the request: " + e.getMessage(), e);
        }
        try {
            // The request timeout ends when the headers arrive; the body's deadline bounds the rest.
            return http.send(httpRequest, info -> new LimitedBody(maxAnswerBytes, deadline));
        } catch (IOException e) {
            // send wraps what failed the exchange in an exception of its own with the same message.
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof AnswerTooLarge) {
                throw new RpcException(
                        method,
                        RpcException.TRANSPORT,
                        "answer from " + endpoint + " is larger than " + maxAnswerBytes + " bytes; not read",
                        cause);
            }
            if (cause instanceof TimeoutException) {
                throw new RpcException(
                        method,
                        RpcException.TRANSPORT,
                        "no complete answer from " + endpoint + " within " + timeout.toMillis() + " ms",
                        cause);
            }
            throw new RpcException(method, RpcException.TRANSPORT, unreachable(cause), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(method, RpcException.TRANSPORT, "interrupted", e);
        }
    }

    /**
     * Ends the HTTP client's threads once a call still in flight has finished; calls after this
     * fail. The JDK 17 client has no close of its own: its selector thread ends once the client is
     * unreachable.
     */
    @Override
    public void close() {
        closed = true;
        // Not shutdown(): an exchange still in flight would have its next task refused, and its
        // caller would wait forever. Idle threads end at once instead, and a late task gets one.
        executor.setKeepAliveTime(1, TimeUnit.MILLISECONDS);
    }

    /** What the names of this client's HTTP threads start with, for tests. */
    String threadNamePrefix() {
        return threadNamePrefix;
    }

    /**
     * Why there was no HTTP answer, in printable words. A Bitcoin P2P port answers an HTTP request
     * with its message start (bcoin sends its version at once) or by hanging up (Core, btcd, our
     * own listener): both are named, with the JSON-RPC port --node wants, never as raw bytes.
     */
    private String unreachable(Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        for (org.blockfilter.filters.chain.Chain c : org.blockfilter.filters.chain.Chain.values()) {
            String magic = new String(
                    org.blockfilter.filters.p2p.MessageFrame.magicBytes(c.magic()), StandardCharsets.ISO_8859_1);
            if (message.contains(magic)) {
                return "the node at " + endpoint + " answered with the Bitcoin P2P message start of " + c.cliName()
                        + ", not HTTP: that is a P2P port; --node takes the node's JSON-RPC port ("
                        + c.defaultRpcPort() + " by default on " + c.cliName() + ")";
            }
        }
        if (cause instanceof java.net.ProtocolException && message.contains("status line")) {
            // A v2 (BIP 324) listener answers with its key: random bytes, no message start to recognise.
            return "the node at " + endpoint + " answered with bytes that are not HTTP; if that is its P2P port, "
                    + "--node takes the JSON-RPC port (8332 on mainnet, 18443 on regtest by default)";
        }
        if (message.contains("received no bytes")) {
            return "the node at " + endpoint + " closed the connection without an HTTP answer; if that is its P2P "
                    + "port, --node takes the JSON-RPC port (8332 on mainnet, 18443 on regtest by default)";
        }
        return "cannot reach node at " + endpoint + ": "
                + (cause.getClass().getName() + ": " + message).replaceAll("[^\\x20-\\x7e]", "?");
    }

    private String notJson(HttpResponse<byte[]> response, String parseError) {
        String type = response.headers().firstValue("Content-Type").orElse("no Content-Type");
        byte[] b = response.body();
        String start = new String(b, 0, Math.min(b.length, 60), StandardCharsets.UTF_8)
                .replaceAll("\\p{Cntrl}", " ")
                .strip();
        return "answer from " + endpoint + " is not JSON (HTTP " + response.statusCode() + ", " + type + ", " + b.length
                + " bytes" + (start.isEmpty() ? "" : ", starting \"" + start + "\"") + "): " + parseError;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** The answer was larger than the limit; reading stopped there. */
    private static final class AnswerTooLarge extends IOException {
        AnswerTooLarge(int limit) {
            super("answer larger than " + limit + " bytes");
        }
    }

    /**
     * Collects a body up to {@code limit} bytes by {@code deadline} ({@link System#nanoTime}), and
     * cancels the download past either. The deadline is CompletableFuture's timeout, whose one
     * timer thread the JVM shares.
     */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private volatile Flow.Subscription subscription;

        LimitedBody(int limit, long deadline) {
            this.limit = limit;
            result.orTimeout(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            result.whenComplete((body, failure) -> {
                Flow.Subscription s = subscription;
                if (failure instanceof TimeoutException && s != null) {
                    s.cancel();
                }
            });
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (result.isDone()) {
                s.cancel(); // timed out before the body began
                return;
            }
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                if (bytes.size() + (long) b.remaining() > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new AnswerTooLarge(limit));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.writeBytes(chunk);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }
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
