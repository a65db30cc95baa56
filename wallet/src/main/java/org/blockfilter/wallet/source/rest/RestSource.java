package org.blockfilter.wallet.source.rest;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.p2p.ProtocolLimits;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.wallet.internal.WalletHttp;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.FeeEstimate;
import org.blockfilter.wallet.source.InvalidAnswerException;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.net.Dialer;
import org.blockfilter.wallet.source.net.HttpProxyBridge;

/**
 * A {@link ChainSource} that reads our server's REST API ({@code /api/v1}) in its binary
 * representation ({@code Accept: application/octet-stream}).
 *
 * <p>Every request has one deadline that covers connecting, the headers and the whole body.
 * Every body is size-limited while it streams in ({@link Limits}) and decoded strictly: a wrong
 * length, a count above the BIP 157 maximum, a non-canonical CompactSize, trailing bytes, an
 * answer for other blocks than asked, a block or transaction that does not parse or hash to what
 * was asked for is an {@link InvalidAnswerException}; an HTTP error, an answer that is not in the
 * API's representation (another content type), a timeout or a refused connection is a plain
 * {@link SourceException}. Both name this source; nothing else escapes. No retries: the sync engine fails
 * over between sources. Headers, filters and blocks are otherwise unverified here (the sync
 * engine checks proof of work, linkage, filter headers and merkle roots).
 *
 * <p>Thread-safe. No method returns null.
 */
public final class RestSource implements ChainSource {

    /** Upper bounds on what one answer may make the wallet buffer. */
    public record Limits(int maxJsonBytes, int maxFilterBytes, long maxFiltersResponseBytes, int maxCheckpoints) {
        /**
         * One filter may be as large as a protocol message; a batch of at most 1000 filters is
         * held to 64 MiB, far above any real chain's filters and far below what would hurt.
         */
        public static final Limits DEFAULT = new Limits(
                64 * 1024, ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH, 64L << 20, ProtocolLimits.MAX_CHECKPOINTS);

        public Limits {
            if (maxJsonBytes < 1024 || maxFilterBytes < 1 || maxFiltersResponseBytes < 1 || maxCheckpoints < 0) {
                throw new IllegalArgumentException("limits out of range");
            }
        }
    }

    private static final String BINARY = "application/octet-stream";
    private static final String TRANSACTIONS = "/api/v1/transactions";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String name;
    private final Duration timeout;
    private final Limits limits;
    private final ExecutorService executor;
    private final HttpClient http;
    private final HttpProxyBridge bridge;
    private volatile boolean closed;

    private RestSource(URI base, Duration timeout, Limits limits, Dialer dialer) {
        String b = base.toString();
        this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
        this.name = "rest:" + this.base;
        this.timeout = timeout;
        this.limits = limits;
        this.executor = WalletHttp.daemonExecutor("rest-source");
        this.bridge = WalletHttp.bridgeFor(dialer, timeout);
        this.http = WalletHttp.newClient(timeout, executor, bridge);
    }

    /** A source for the server at {@code baseUri} (e.g. {@code http://127.0.0.1:8157}), default limits. */
    public static RestSource create(URI baseUri, Duration timeout) {
        return create(baseUri, timeout, Limits.DEFAULT);
    }

    /**
     * A source for the server at {@code baseUri}, with explicit limits on what it accepts from the server, connecting
     * directly.
     */
    public static RestSource create(URI baseUri, Duration timeout, Limits limits) {
        return create(baseUri, timeout, limits, Dialer.DIRECT);
    }

    /** A source whose connections {@code dialer} opens (e.g. through a SOCKS5 proxy). */
    public static RestSource create(URI baseUri, Duration timeout, Limits limits, Dialer dialer) {
        Objects.requireNonNull(dialer, "dialer");
        Objects.requireNonNull(baseUri, "baseUri");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(limits, "limits");
        if (!"http".equals(baseUri.getScheme()) && !"https".equals(baseUri.getScheme())) {
            throw new IllegalArgumentException("not an http(s) URI: " + baseUri);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return new RestSource(baseUri, timeout, limits, dialer);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * {@code GET /api/v1/fee-estimates?target=N}: the rate the server's node estimates, with the
     * RPC it came from and the target the node answered for; none with the node's reason.
     */
    @Override
    public FeeEstimate feeEstimate(int targetBlocks) {
        if (targetBlocks < 1 || targetBlocks > 1008) {
            throw new IllegalArgumentException("target must be 1..1008 blocks: " + targetBlocks);
        }
        JsonNode all = getJson("/api/v1/fee-estimates?target=" + targetBlocks);
        JsonNode list = all.get("estimates");
        if (list == null || !list.isArray() || list.size() != 1 || !list.get(0).isObject()) {
            throw fail("fee-estimates: expected one estimate for target " + targetBlocks + ", got " + list);
        }
        JsonNode e = list.get(0);
        String source = all.path("source").asText("?");
        JsonNode rate = e.get("satPerVByte");
        if (e.path("target").asInt(-1) != targetBlocks) {
            throw fail("fee-estimates: answered for target " + e.get("target") + ", asked " + targetBlocks);
        }
        if (rate == null || rate.isNull()) {
            String why = e.path("error").asText("no reason given");
            return FeeEstimate.none(
                    targetBlocks, name + ": the node has no estimate (" + source + ": " + abbreviate(why) + ")");
        }
        if (!rate.isNumber() || !(rate.asDouble() > 0) || rate.asDouble() >= 1e9) {
            throw fail("fee-estimates: satPerVByte must be a positive number, got " + rate);
        }
        JsonNode blocks = e.get("blocks");
        String forBlocks = blocks != null && blocks.isIntegralNumber() ? ", for " + blocks.asInt() + " blocks" : "";
        return FeeEstimate.of(targetBlocks, rate.asDouble(), name + " (" + source + forBlocks + ")");
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "...";
    }

    /** The server's indexed height: the highest block it can serve filters for. */
    @Override
    public int tipHeight() {
        JsonNode h = getJson("/api/v1/status").get("indexedHeight");
        if (h == null || !h.isIntegralNumber() || !h.canConvertToInt() || h.intValue() < 0) {
            throw invalid("status: indexedHeight is missing or not a height: " + h, null);
        }
        return h.intValue();
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        checkHeight(startHeight);
        if (count < 1 || count > ProtocolLimits.MAX_HEADERS_RESULTS) {
            throw new IllegalArgumentException("count must be 1.." + ProtocolLimits.MAX_HEADERS_RESULTS + ": " + count);
        }
        byte[] body = getBinary(
                "/api/v1/headers?start_height=" + startHeight + "&count=" + count,
                (long) count * ProtocolLimits.HEADER_BYTES);
        if (body.length == 0 || body.length % ProtocolLimits.HEADER_BYTES != 0) {
            throw invalid("headers: body of " + body.length + " bytes is not a positive multiple of 80", null);
        }
        List<byte[]> out = new ArrayList<>(body.length / ProtocolLimits.HEADER_BYTES);
        for (int off = 0; off < body.length; off += ProtocolLimits.HEADER_BYTES) {
            out.add(Arrays.copyOfRange(body, off, off + ProtocolLimits.HEADER_BYTES));
        }
        return out;
    }

    @Override
    public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        checkHeight(startHeight);
        Objects.requireNonNull(stopHash, "stopHash");
        long max = ProtocolLimits.HASH_BYTES + 3 + (long) Bip157.MAX_CFHEADERS * ProtocolLimits.HASH_BYTES;
        byte[] body = getBinary("/api/v1/filter-headers?start_height=" + startHeight + "&stop_hash=" + stopHash, max);
        return decode("filter-headers", () -> BinaryAnswers.filterHeaders(body));
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        Objects.requireNonNull(stopHash, "stopHash");
        long max = 9 + (long) limits.maxCheckpoints() * ProtocolLimits.HASH_BYTES;
        byte[] body = getBinary("/api/v1/checkpoints?stop_hash=" + stopHash, max);
        return decode("checkpoints", () -> BinaryAnswers.checkpoints(body, limits.maxCheckpoints()));
    }

    /**
     * The filters of {@code startHeight..stopHash}. The answer must end at {@code stopHash} and
     * hold at most 1000 filters; whether the other hashes are the right blocks is the sync
     * engine's check (it knows the header chain).
     */
    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        checkHeight(startHeight);
        Objects.requireNonNull(stopHash, "stopHash");
        byte[] body = getBinary(
                "/api/v1/filters?start_height=" + startHeight + "&stop_hash=" + stopHash,
                limits.maxFiltersResponseBytes());
        return decode("filters", () -> BinaryAnswers.filters(body, stopHash, limits.maxFilterBytes()));
    }

    /** The raw block; it must parse and its header must hash to {@code blockHash}. */
    @Override
    public byte[] block(Sha256Hash blockHash) {
        Objects.requireNonNull(blockHash, "blockHash");
        byte[] body = getBinary("/api/v1/blocks/" + blockHash, ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH);
        checkBlock(body, blockHash);
        return body;
    }

    /**
     * {@code POST /api/v1/transactions}. Our server answers the txid only once its node holds the
     * transaction (docs/api.md); a 4xx (the node's reason) is a {@link NotAcceptedException}.
     */
    @Override
    public Sha256Hash broadcast(byte[] rawTransaction) {
        Objects.requireNonNull(rawTransaction, "rawTransaction");
        Sha256Hash txid;
        try {
            ByteBuffer buf = ByteBuffer.wrap(rawTransaction);
            txid = Transaction.read(buf).getTxId();
            if (buf.hasRemaining()) {
                throw new IllegalArgumentException("transaction has " + buf.remaining() + " trailing bytes");
            }
        } catch (ProtocolException | BufferUnderflowException e) {
            throw new IllegalArgumentException("not a serialized transaction: " + e.getMessage(), e);
        }
        HttpRequest req = request(TRANSACTIONS)
                .header("Content-Type", BINARY)
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(rawTransaction))
                .build();
        JsonNode answer = parseJson("transactions", send(req, limits.maxJsonBytes()));
        JsonNode id = answer.get("txid");
        if (id == null || !id.isTextual() || !id.asText().equals(txid.toString())) {
            throw invalid("transactions: answered txid " + id + " for transaction " + txid, null);
        }
        return txid;
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
        if (bridge != null) {
            bridge.close();
        }
    }

    @Override
    public String toString() {
        return name;
    }

    // --- HTTP ---

    private HttpRequest.Builder request(String pathAndQuery) {
        if (closed) {
            throw fail("closed");
        }
        return WalletHttp.request(URI.create(base + pathAndQuery), timeout);
    }

    private JsonNode getJson(String path) {
        HttpRequest req =
                request(path).header("Accept", "application/json").GET().build();
        return parseJson(path, send(req, limits.maxJsonBytes()));
    }

    private byte[] getBinary(String path, long maxBytes) {
        HttpRequest req = request(path).header("Accept", BINARY).GET().build();
        HttpResponse<byte[]> resp = sendForResponse(req, maxBytes);
        String type = resp.headers().firstValue("Content-Type").orElse(BINARY);
        if (!type.toLowerCase(java.util.Locale.ROOT).startsWith(BINARY)) {
            throw fail(path + ": expected " + BINARY + ", got " + type);
        }
        return resp.body();
    }

    private byte[] send(HttpRequest req, long maxBytes) {
        return sendForResponse(req, maxBytes).body();
    }

    /** Sends, waits at most the timeout for the whole answer, and turns any non-200 into an error. */
    private HttpResponse<byte[]> sendForResponse(HttpRequest req, long maxBytes) {
        String what = req.method() + " " + req.uri().getRawPath();
        HttpResponse<byte[]> resp;
        try {
            resp = WalletHttp.send(http, req, timeout, maxBytes, limits.maxJsonBytes());
        } catch (WalletHttp.Failure e) {
            throw fail(what + ": " + e.getMessage(), e.getCause());
        }
        if (resp.statusCode() >= 400
                && resp.statusCode() < 500
                && req.uri().getRawPath().endsWith(TRANSACTIONS)) {
            // The server refused the transaction (or its node did): the payment was not accepted.
            throw new NotAcceptedException(name, what + ": " + describeError(resp));
        }
        if (resp.statusCode() != 200) {
            throw fail(what + ": " + describeError(resp));
        }
        return resp;
    }

    /** {@code HTTP 404 not_found: message}, from our one error shape when the body has it. */
    private static String describeError(HttpResponse<byte[]> resp) {
        StringBuilder sb = new StringBuilder("HTTP ").append(resp.statusCode());
        try {
            JsonNode err = JSON.readTree(resp.body()).path("error");
            if (err.hasNonNull("code")) {
                sb.append(' ').append(err.get("code").asText());
            }
            if (err.hasNonNull("message")) {
                sb.append(": ").append(err.get("message").asText());
            }
        } catch (IOException | RuntimeException e) {
            // Not our error shape: the status alone says enough.
        }
        resp.headers()
                .firstValue("Retry-After")
                .ifPresent(s -> sb.append(" (retry after ").append(s).append(" s)"));
        return sb.toString();
    }

    private JsonNode parseJson(String what, byte[] body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw invalid(what + ": answer is not a JSON object", null);
            }
            return node;
        } catch (JacksonException e) {
            throw invalid(what + ": malformed JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw fail(what + ": " + e, e);
        }
    }

    // --- decoding ---

    private <T> T decode(String what, java.util.function.Supplier<T> decoder) {
        try {
            return decoder.get();
        } catch (WireFormatException e) {
            throw invalid(what + ": " + e.getMessage(), e);
        }
    }

    private void checkBlock(byte[] raw, Sha256Hash expected) {
        if (raw.length < ProtocolLimits.HEADER_BYTES) {
            throw invalid("block " + expected + ": " + raw.length + " bytes is shorter than a header", null);
        }
        Sha256Hash actual = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(raw, 0, ProtocolLimits.HEADER_BYTES));
        if (!actual.equals(expected)) {
            throw invalid("block " + expected + ": answered block " + actual, null);
        }
        ByteBuffer buf = ByteBuffer.wrap(raw);
        try {
            org.bitcoinj.core.Block.read(buf);
        } catch (RuntimeException e) {
            // bitcoinj signals bad bytes with several unchecked types; all mean "malformed".
            throw invalid("block " + expected + ": does not parse: " + e, e);
        }
        if (buf.hasRemaining()) {
            throw invalid("block " + expected + ": " + buf.remaining() + " trailing bytes", null);
        }
    }

    private static void checkHeight(int height) {
        if (height < 0) {
            throw new IllegalArgumentException("height must be >= 0: " + height);
        }
    }

    private SourceException fail(String message) {
        return new SourceException(name, message);
    }

    private SourceException fail(String message, Throwable cause) {
        return new SourceException(name, message, cause);
    }

    /** An answer came (HTTP 200 in the API's representation) and it is invalid. */
    private InvalidAnswerException invalid(String message, Throwable cause) {
        return new InvalidAnswerException(name, message, cause);
    }
}
