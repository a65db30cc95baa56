package org.blockfilter.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.testing.RegtestChainBuilder;

/**
 * A minimal JSON-RPC node for tests, written on a raw {@link ServerSocket} as the simplest
 * HTTP/1.1-only servers are: one request per connection, {@code Connection: close}, and a request
 * that carries an {@code Upgrade} (HTTP/2 {@code h2c}) header is answered by closing the
 * connection without a byte. What each call answers is scripted: {@code (method, params) -> Answer}.
 * Thread-safe; closes its threads on {@link #close()}.
 */
public final class Http11OnlyNode implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the node sends back: a status, a content type and a body (or a filler of a given size). */
    public record Answer(int status, String contentType, byte[] body, long fillerBytes) {
        public static Answer json(String body) {
            return new Answer(200, "application/json", body.getBytes(StandardCharsets.UTF_8), 0);
        }

        /** {@code {"result": <json>, "error": null, "id": 1}}. */
        public static Answer result(String json) {
            return json("{\"result\":" + json + ",\"error\":null,\"id\":1}");
        }

        public static Answer raw(int status, String contentType, String body) {
            return new Answer(status, contentType, body.getBytes(StandardCharsets.UTF_8), 0);
        }

        /** A JSON-looking body of {@code bytes} bytes: {@code {"result":"000...}. */
        public static Answer huge(long bytes) {
            return new Answer(200, "application/json", "{\"result\":\"".getBytes(StandardCharsets.UTF_8), bytes);
        }
    }

    /**
     * Answers as a node whose best chain is {@code chain}: getblockchaininfo (regtest),
     * getblockcount, getbestblockhash, getblockhash, getblock hash 0; Core's errors otherwise.
     */
    public static Answer chainAnswer(RegtestChainBuilder chain, String method, JsonNode params) {
        return switch (method) {
            case "getblockchaininfo" -> Answer.result("{\"chain\":\"regtest\",\"blocks\":" + chain.tipHeight() + "}");
            case "getblockcount" -> Answer.result(Integer.toString(chain.tipHeight()));
            case "getbestblockhash" -> Answer.result("\"" + chain.tip().getHash() + "\"");
            case "getblockhash" -> {
                int h = params.path(0).asInt();
                yield h <= chain.tipHeight()
                        ? Answer.result("\"" + chain.block(h).getHash() + "\"")
                        : error(-8, "Block height out of range");
            }
            case "getblock" -> {
                int h = chain.height(Sha256Hash.wrap(params.path(0).asText()));
                yield h < 0
                        ? error(-5, "Block not found")
                        : Answer.result(
                                "\"" + HexFormat.of().formatHex(chain.block(h).serialize()) + "\"");
            }
            default -> error(-32601, "Method not found");
        };
    }

    /** A JSON-RPC error object with HTTP 500, as Core sends it. */
    public static Answer error(int code, String message) {
        return Answer.raw(
                500,
                "application/json",
                "{\"result\":null,\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\"},\"id\":1}");
    }

    private final ServerSocket socket;
    private final BiFunction<String, JsonNode, Answer> script;
    private final Map<String, Semaphore> calls = new ConcurrentHashMap<>();
    private final AtomicInteger upgradesRefused = new AtomicInteger();
    private final Thread acceptor;

    public Http11OnlyNode(BiFunction<String, JsonNode, Answer> script) throws IOException {
        this.script = script;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "http11-only-node");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code http://u:p@127.0.0.1:port}, as {@code --node} takes it. */
    public URI url() {
        return URI.create("http://u:p@127.0.0.1:" + socket.getLocalPort());
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    /** How many requests offered an upgrade (and were dropped). */
    public int upgradesRefused() {
        return upgradesRefused.get();
    }

    /** Waits until {@code method} has been called {@code n} times (counted from the start). */
    public boolean awaitCalls(String method, int n, long seconds) throws InterruptedException {
        return semaphore(method).tryAcquire(n, seconds, TimeUnit.SECONDS);
    }

    private Semaphore semaphore(String method) {
        return calls.computeIfAbsent(method, m -> new Semaphore(0));
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                Thread t = new Thread(() -> serve(s), "http11-only-node-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setSoTimeout(30_000);
            InputStream in = s.getInputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            int length = 0;
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("upgrade:") || lower.startsWith("http2-settings:")) {
                    upgradesRefused.incrementAndGet();
                    return; // as an HTTP/1.1-only server that does not understand the upgrade
                }
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(
                            lower.substring("content-length:".length()).trim());
                }
            }
            JsonNode request = JSON.readTree(in.readNBytes(length));
            String method = request.path("method").asText();
            Answer a = script.apply(method, request.path("params"));
            semaphore(method).release();
            write(s.getOutputStream(), a);
        } catch (SocketException e) {
            // the client hung up (for example on an answer over its limit)
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            if (h.length >= 4 && Arrays.equals(h, h.length - 4, h.length, new byte[] {13, 10, 13, 10}, 0, 4)) {
                return new String(h, StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static void write(OutputStream out, Answer a) throws IOException {
        long length = a.body().length + a.fillerBytes();
        out.write(("HTTP/1.1 " + a.status() + " X\r\nContent-Type: " + a.contentType() + "\r\nContent-Length: " + length
                        + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.write(a.body());
        byte[] zeros = new byte[64 * 1024];
        Arrays.fill(zeros, (byte) '0');
        for (long left = a.fillerBytes(); left > 0; left -= zeros.length) {
            out.write(zeros, 0, (int) Math.min(left, zeros.length));
        }
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
