package org.blockfilter.wallet.legacy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.Transaction;
import org.blockfilter.wallet.internal.LimitedBodySubscriber;
import org.blockfilter.wallet.internal.WalletHttp;
import org.blockfilter.wallet.source.SourceException;

/**
 * Client of our server's legacy endpoint {@code POST /api/v1/bip37/scan}: sends a {@code
 * filterload} Bloom filter and a height range, gets back a merkleblock and the matched
 * transactions per matching block. Each merkleblock's partial merkle tree is checked against its
 * header and each returned transaction against the matched txids; any malformed or inconsistent
 * answer is a {@link SourceException} naming {@code rest-bip37:<base>}. The response is
 * size-limited while it streams in.
 *
 * <p>Immutable and thread-safe.
 */
public final class ServerBip37Scan {

    /** One matching block: its matched txids (from the partial merkle tree) and the transactions sent. */
    public record ScannedBlock(int height, Sha256Hash hash, List<Sha256Hash> matchedTxids, List<Sha256Hash> sentTxids) {
        public ScannedBlock {
            matchedTxids = List.copyOf(matchedTxids);
            sentTxids = List.copyOf(sentTxids);
        }
    }

    /**
     * @param responseBytes bytes of the HTTP response body (hex JSON)
     * @param serverBytes   the server's own {@code bytes} figure
     * @param cpuNanos      the server's {@code cpuNanos} figure
     */
    public record Result(
            List<ScannedBlock> blocks, long responseBytes, long serverBytes, long cpuNanos, Duration elapsed) {
        public Result {
            blocks = List.copyOf(blocks);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private final URI endpoint;
    private final String name;
    private final Duration timeout;
    private final long maxResponseBytes;
    private final HttpClient http;

    private ServerBip37Scan(URI base, Duration timeout, long maxResponseBytes) {
        String b = base.toString();
        b = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
        this.endpoint = URI.create(b + "/api/v1/bip37/scan");
        this.name = "rest-bip37:" + b;
        this.timeout = timeout;
        this.maxResponseBytes = maxResponseBytes;
        this.http = WalletHttp.newClient(timeout, null);
    }

    /**
     * A client for the server at {@code baseUri}; each request times out after {@code timeout}, and an answer larger
     * than {@code maxResponseBytes} (at least 1 KiB) is refused.
     */
    public static ServerBip37Scan create(URI baseUri, Duration timeout, long maxResponseBytes) {
        Objects.requireNonNull(baseUri, "baseUri");
        if (timeout.isZero() || timeout.isNegative() || maxResponseBytes < 1024) {
            throw new IllegalArgumentException("timeout must be positive and the limit at least 1 KiB");
        }
        return new ServerBip37Scan(baseUri, timeout, maxResponseBytes);
    }

    /** The name this source goes by in reports, {@code rest-bip37:} and the base URL. */
    public String name() {
        return name;
    }

    /**
     * Has the server run the filter over the blocks {@code startHeight .. stopHeight}; returns each matching block
     * (its merkle proof checked against its header) with the server's cost figures. The server sees the filter: this
     * is the leaky BIP 37 path, kept for comparison.
     */
    public Result scan(BloomFilter filter, int startHeight, int stopHeight) {
        if (startHeight < 0 || stopHeight < startHeight) {
            throw new IllegalArgumentException("bad range " + startHeight + ".." + stopHeight);
        }
        ObjectNode body = JSON.createObjectNode()
                .put("filter", HEX.formatHex(filter.serialize()))
                .put("startHeight", startHeight)
                .put("stopHeight", stopHeight);
        HttpRequest req = WalletHttp.request(endpoint, timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
        long t0 = System.nanoTime();
        CompletableFuture<HttpResponse<byte[]>> future =
                http.sendAsync(req, LimitedBodySubscriber.handler(maxResponseBytes, 64 * 1024));
        HttpResponse<byte[]> resp;
        try {
            resp = future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw fail("no complete answer within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw fail("interrupted", e);
        } catch (ExecutionException e) {
            throw fail(e.getCause().toString(), e.getCause());
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        if (resp.statusCode() != 200) {
            throw fail("HTTP " + resp.statusCode() + ": "
                    + new String(resp.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        try {
            return parse(JSON.readTree(resp.body()), resp.body().length, elapsed, startHeight, stopHeight);
        } catch (IOException e) {
            throw fail("malformed JSON: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (e instanceof SourceException s) {
                throw s;
            }
            throw fail("malformed answer: " + e, e);
        }
    }

    private Result parse(JsonNode root, long responseBytes, Duration elapsed, int start, int stop) {
        JsonNode blocks = root.get("blocks");
        if (blocks == null || !blocks.isArray()) {
            throw fail("no blocks array");
        }
        List<ScannedBlock> out = new ArrayList<>(blocks.size());
        int lastHeight = start - 1;
        for (JsonNode b : blocks) {
            int height = b.path("height").asInt(-1);
            if (height <= lastHeight || height > stop) {
                throw fail("block height " + b.path("height") + " out of order or range " + start + ".." + stop);
            }
            lastHeight = height;
            Sha256Hash hash = Sha256Hash.wrap(b.path("hash").asText());
            FilteredBlock fb = FilteredBlock.read(
                    ByteBuffer.wrap(HEX.parseHex(b.path("merkleBlock").asText())));
            if (!fb.getHash().equals(hash)) {
                throw fail("merkleblock at height " + height + " is for " + fb.getHash() + ", not " + hash);
            }
            List<Sha256Hash> matched = fb.getTransactionHashes(); // verifies the tree against the header's merkle root
            List<Sha256Hash> sent = new ArrayList<>();
            for (JsonNode t : b.path("transactions")) {
                Sha256Hash txid = Transaction.read(ByteBuffer.wrap(HEX.parseHex(t.asText())))
                        .getTxId();
                if (!matched.contains(txid)) {
                    throw fail("transaction " + txid + " at height " + height + " is not in its merkleblock's matches");
                }
                sent.add(txid);
            }
            out.add(new ScannedBlock(height, hash, matched, sent));
        }
        return new Result(
                out,
                responseBytes,
                root.path("bytes").asLong(-1),
                root.path("cpuNanos").asLong(-1),
                elapsed);
    }

    private SourceException fail(String message) {
        return new SourceException(name, message);
    }

    private SourceException fail(String message, Throwable cause) {
        return new SourceException(name, message, cause);
    }
}
