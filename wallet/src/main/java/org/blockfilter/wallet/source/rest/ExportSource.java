package org.blockfilter.wallet.source.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.p2p.ProtocolLimits;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.wallet.internal.WalletHttp;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.FeeEstimate;
import org.blockfilter.wallet.source.InvalidAnswerException;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.net.Dialer;
import org.blockfilter.wallet.source.net.HttpProxyBridge;

/**
 * A {@link ChainSource} that reads a static export of our server ({@code blockfilter-server
 * export}) from any HTTP server, CDN or object store: {@code index.json} at the base URL lists
 * content-addressed range files of block headers, filter headers and filters (1,000 blocks each,
 * in the REST API's binary formats), the checkpoints, and optionally the raw blocks.
 *
 * <p>The index document is read again by every {@link #tipHeight()}; each file must have the
 * size and SHA-256 the index names (a transport check: a file changed under its name is a
 * failure of this source, as a damaged transfer is). A file that passes that check and does not
 * decode, or holds the wrong number of entries, is an {@link InvalidAnswerException}. Everything else is verified exactly as for {@link RestSource}: the
 * sync engine checks proof of work and linkage of the headers, the filter-header chain against
 * checkpoints and other sources, each filter against its filter header and each block against
 * its header, so an export rewritten consistently, index included, is caught there. Bodies are
 * size-limited and decoded strictly. Cannot relay transactions.
 *
 * <p>Thread-safe. No method returns null.
 */
public final class ExportSource implements ChainSource {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FORMAT = 1;
    private static final int RANGE = Bip157.MAX_CFILTERS;
    private static final int MAX_INDEX_BYTES = 16 << 20;
    private static final long MAX_RANGE_FILE_BYTES = 64L << 20;
    private static final int CACHED_FILES = 12;

    private final URI base;
    private final String name;
    private final Duration timeout;
    private final ExecutorService executor;
    private final HttpClient http;
    private final HttpProxyBridge bridge;
    private final Map<String, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
            return size() > CACHED_FILES;
        }
    };
    private volatile Index index;
    private volatile boolean closed;

    /** One file the index lists. */
    private record FileRef(
            String kind, int start, int stop, Sha256Hash stopHash, String path, String sha256, long bytes) {}

    /** The parsed index document. */
    private record Index(
            int tipHeight, Sha256Hash tipHash, boolean blocks, FileRef checkpoints, Map<String, List<FileRef>> files) {}

    private ExportSource(URI base, Duration timeout, Dialer dialer) {
        String b = base.toString();
        if (b.endsWith("/index.json")) {
            b = b.substring(0, b.length() - "index.json".length());
        }
        this.base = URI.create(b.endsWith("/") ? b : b + "/");
        this.name = "export:" + this.base;
        this.timeout = timeout;
        this.executor = WalletHttp.daemonExecutor("export-source");
        this.bridge = WalletHttp.bridgeFor(dialer, timeout);
        this.http = WalletHttp.newClient(timeout, executor, bridge);
    }

    /** A source for the export at {@code baseUri} (its directory, or its index.json). */
    public static ExportSource create(URI baseUri, Duration timeout) {
        return create(baseUri, timeout, Dialer.DIRECT);
    }

    /** As {@link #create(URI, Duration)}, with connections opened by {@code dialer}. */
    public static ExportSource create(URI baseUri, Duration timeout, Dialer dialer) {
        Objects.requireNonNull(dialer, "dialer");
        Objects.requireNonNull(baseUri, "baseUri");
        Objects.requireNonNull(timeout, "timeout");
        if (!"http".equals(baseUri.getScheme()) && !"https".equals(baseUri.getScheme())) {
            throw new IllegalArgumentException("not an http(s) URI: " + baseUri);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return new ExportSource(baseUri, timeout, dialer);
    }

    @Override
    public String name() {
        return name;
    }

    /** The export's tip (buried by its safety depth); reads index.json again. */
    @Override
    public int tipHeight() {
        index = readIndex();
        return index.tipHeight();
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        checkHeight(startHeight);
        if (count < 1 || count > ProtocolLimits.MAX_HEADERS_RESULTS) {
            throw new IllegalArgumentException("count must be 1.." + ProtocolLimits.MAX_HEADERS_RESULTS + ": " + count);
        }
        Index idx = index();
        if (startHeight > idx.tipHeight()) {
            throw fail("headers: height " + startHeight + " is above the export's tip " + idx.tipHeight());
        }
        int stop = Math.min(idx.tipHeight(), startHeight + count - 1);
        List<byte[]> out = new ArrayList<>();
        for (int h = startHeight; h <= stop; ) {
            FileRef f = fileFor(idx, "headers", h);
            byte[] body = fetch(f);
            if (body.length != (f.stop() - f.start() + 1) * ProtocolLimits.HEADER_BYTES) {
                throw invalid(f.path() + ": " + body.length + " bytes for " + (f.stop() - f.start() + 1) + " headers");
            }
            for (; h <= Math.min(stop, f.stop()); h++) {
                int off = (h - f.start()) * ProtocolLimits.HEADER_BYTES;
                out.add(Arrays.copyOfRange(body, off, off + ProtocolLimits.HEADER_BYTES));
            }
        }
        return out;
    }

    @Override
    public FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        checkHeight(startHeight);
        Objects.requireNonNull(stopHash, "stopHash");
        Index idx = index();
        int stop = heightOf(idx, stopHash, startHeight, Bip157.MAX_CFHEADERS);
        Sha256Hash previous = null;
        List<Sha256Hash> hashes = new ArrayList<>();
        for (int h = startHeight; h <= stop; ) {
            FileRef f = fileFor(idx, "filter-headers", h);
            FilterHashBatch file = decode(f.path(), BinaryAnswers::filterHeaders, fetch(f));
            if (file.filterHashes().size() != f.stop() - f.start() + 1) {
                throw invalid(f.path() + ": " + file.filterHashes().size() + " filter hashes for " + f.start() + ".."
                        + f.stop());
            }
            if (previous == null) {
                previous = file.previousHeader();
                for (int i = f.start(); i < startHeight; i++) {
                    previous = org.blockfilter.filters.FilterHeaders.next(
                            file.filterHashes().get(i - f.start()), previous);
                }
            }
            for (; h <= Math.min(stop, f.stop()); h++) {
                hashes.add(file.filterHashes().get(h - f.start()));
            }
        }
        return new FilterHashBatch(previous, hashes);
    }

    @Override
    public List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        Objects.requireNonNull(stopHash, "stopHash");
        Index idx = index();
        int stop = stopHash.equals(idx.tipHash()) ? idx.tipHeight() : heightOf(idx, stopHash, 0, idx.tipHeight() + 1);
        FileRef f = idx.checkpoints();
        List<Sha256Hash> all =
                decode(f.path(), b -> BinaryAnswers.checkpoints(b, ProtocolLimits.MAX_CHECKPOINTS), fetch(f));
        int n = stop / Bip157.CHECKPOINT_INTERVAL;
        if (all.size() < n) {
            throw invalid(f.path() + ": " + all.size() + " checkpoints, " + n + " expected up to height " + stop);
        }
        return List.copyOf(all.subList(0, n));
    }

    @Override
    public List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        checkHeight(startHeight);
        Objects.requireNonNull(stopHash, "stopHash");
        Index idx = index();
        int stop = heightOf(idx, stopHash, startHeight, Bip157.MAX_CFILTERS);
        List<BlockFilterBytes> out = new ArrayList<>();
        for (int h = startHeight; h <= stop; ) {
            FileRef f = fileFor(idx, "filters", h);
            List<BlockFilterBytes> file = decode(
                    f.path(),
                    b -> BinaryAnswers.filters(b, f.stopHash(), ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH),
                    fetch(f));
            if (file.size() != f.stop() - f.start() + 1) {
                throw invalid(f.path() + ": " + file.size() + " filters for " + f.start() + ".." + f.stop());
            }
            for (; h <= Math.min(stop, f.stop()); h++) {
                out.add(file.get(h - f.start()));
            }
        }
        return out;
    }

    @Override
    public byte[] block(Sha256Hash blockHash) {
        Objects.requireNonNull(blockHash, "blockHash");
        if (!index().blocks()) {
            throw fail("this export has no blocks (export it with --blocks, or add a server or peer)");
        }
        byte[] raw = get("blocks/" + blockHash + ".bin", ProtocolLimits.MAX_PROTOCOL_MESSAGE_LENGTH);
        Sha256Hash actual = raw.length < ProtocolLimits.HEADER_BYTES
                ? null
                : Sha256Hash.wrapReversed(Sha256Hash.hashTwice(raw, 0, ProtocolLimits.HEADER_BYTES));
        if (!blockHash.equals(actual)) {
            throw fail("blocks/" + blockHash + ".bin: is block " + actual);
        }
        return raw;
    }

    @Override
    public Sha256Hash broadcast(byte[] rawTransaction) {
        throw fail("a static export cannot relay transactions");
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

    // --- the index and its files ---

    private Index index() {
        Index idx = index;
        return idx != null ? idx : (index = readIndex());
    }

    private Index readIndex() {
        byte[] body = get("index.json", MAX_INDEX_BYTES);
        try {
            JsonNode root = JSON.readTree(body);
            if (root == null || root.path("format").asInt(-1) != FORMAT) {
                throw fail("index.json: not a format " + FORMAT + " export");
            }
            if (root.path("rangeSize").asInt(-1) != RANGE) {
                throw fail("index.json: rangeSize " + root.path("rangeSize") + ", expected " + RANGE);
            }
            int tip = root.path("tipHeight").asInt(-1);
            if (tip < 0) {
                throw fail("index.json: tipHeight missing or negative");
            }
            Map<String, List<FileRef>> files = new LinkedHashMap<>();
            for (JsonNode f : root.path("files")) {
                FileRef ref = fileRef(f);
                if (ref.start() % RANGE != 0 || ref.stop() < ref.start() || ref.stop() - ref.start() >= RANGE) {
                    throw fail("index.json: range " + ref.start() + ".." + ref.stop() + " is not aligned to " + RANGE);
                }
                files.computeIfAbsent(ref.kind(), k -> new ArrayList<>()).add(ref);
            }
            for (String kind : List.of("headers", "filter-headers", "filters")) {
                List<FileRef> list = files.getOrDefault(kind, List.of());
                list.sort((a, b) -> Integer.compare(a.start(), b.start()));
                for (int i = 0; i < list.size(); i++) {
                    int expectedStop = Math.min(tip, i * RANGE + RANGE - 1);
                    if (list.get(i).start() != i * RANGE || list.get(i).stop() != expectedStop) {
                        throw fail("index.json: " + kind + " ranges do not cover 0.." + tip);
                    }
                }
                if (list.size() != tip / RANGE + 1) {
                    throw fail("index.json: " + kind + " ranges do not cover 0.." + tip);
                }
            }
            JsonNode cp = root.path("checkpoints");
            FileRef checkpoints = new FileRef(
                    "checkpoints",
                    0,
                    cp.path("stop").asInt(-1),
                    hash(cp, "stopHash"),
                    text(cp, "path"),
                    text(cp, "sha256"),
                    cp.path("bytes").asLong(-1));
            if (checkpoints.stop() != tip) {
                throw fail("index.json: checkpoints stop at " + checkpoints.stop() + ", not at the tip " + tip);
            }
            return new Index(
                    tip, hash(root, "tipHash"), root.path("blocks").asBoolean(false), checkpoints, Map.copyOf(files));
        } catch (IOException e) {
            throw fail("index.json: malformed JSON: " + e.getMessage(), e);
        }
    }

    private FileRef fileRef(JsonNode f) {
        return new FileRef(
                text(f, "kind"),
                f.path("start").asInt(-1),
                f.path("stop").asInt(-1),
                hash(f, "stopHash"),
                text(f, "path"),
                text(f, "sha256"),
                f.path("bytes").asLong(-1));
    }

    private String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw fail("index.json: " + field + " missing");
        }
        return v.asText();
    }

    private Sha256Hash hash(JsonNode node, String field) {
        String s = text(node, field);
        try {
            return Sha256Hash.wrap(s);
        } catch (IllegalArgumentException e) {
            throw fail("index.json: " + field + " is not a hash: " + s);
        }
    }

    private FileRef fileFor(Index idx, String kind, int height) {
        List<FileRef> list = idx.files().get(kind);
        if (height < 0 || height > idx.tipHeight() || list == null) {
            throw fail(kind + ": height " + height + " is not in the export (tip " + idx.tipHeight() + ")");
        }
        return list.get(height / RANGE);
    }

    /** The height of {@code blockHash} among the at most {@code max} blocks from {@code from}, by its header. */
    private int heightOf(Index idx, Sha256Hash blockHash, int from, int max) {
        if (from > idx.tipHeight()) {
            throw fail("height " + from + " is above the export's tip " + idx.tipHeight());
        }
        int to = (int) Math.min(idx.tipHeight(), (long) from + max - 1);
        for (int h = from; h <= to; ) {
            FileRef f = fileFor(idx, "headers", h);
            if (f.stopHash().equals(blockHash) && f.stop() <= to) {
                return f.stop();
            }
            byte[] body = fetch(f);
            for (; h <= Math.min(to, f.stop()); h++) {
                int off = (h - f.start()) * ProtocolLimits.HEADER_BYTES;
                if (off + ProtocolLimits.HEADER_BYTES > body.length) {
                    throw invalid(f.path() + ": too short");
                }
                if (Sha256Hash.wrapReversed(Sha256Hash.hashTwice(body, off, ProtocolLimits.HEADER_BYTES))
                        .equals(blockHash)) {
                    return h;
                }
            }
        }
        throw fail("block " + blockHash + " is not in the export at heights " + from + ".." + to);
    }

    /** A listed file, checked against the size and SHA-256 the index names. */
    private byte[] fetch(FileRef f) {
        synchronized (cache) {
            byte[] hit = cache.get(f.path());
            if (hit != null) {
                return hit;
            }
        }
        if (f.bytes() < 0 || f.bytes() > MAX_RANGE_FILE_BYTES) {
            throw fail("index.json: " + f.path() + " has size " + f.bytes());
        }
        byte[] body = get(f.path(), f.bytes());
        if (body.length != f.bytes() || !sha256(body).equals(f.sha256())) {
            throw fail(f.path() + ": does not match the size and SHA-256 in index.json");
        }
        synchronized (cache) {
            cache.put(f.path(), body);
        }
        return body;
    }

    private byte[] get(String path, long maxBytes) {
        if (closed) {
            throw fail("closed");
        }
        if (path.contains("..") || path.startsWith("/") || path.contains("://")) {
            throw fail("index.json: path " + path + " leaves the export");
        }
        HttpRequest req = WalletHttp.request(base.resolve(path), timeout).GET().build();
        HttpResponse<byte[]> resp;
        try {
            resp = WalletHttp.send(http, req, timeout, maxBytes, 64 * 1024);
        } catch (WalletHttp.Failure e) {
            throw fail("GET " + path + ": " + e.getMessage(), e.getCause());
        }
        if (resp.statusCode() != 200) {
            throw fail("GET " + path + ": HTTP " + resp.statusCode());
        }
        return resp.body();
    }

    private <T> T decode(String what, java.util.function.Function<byte[], T> decoder, byte[] body) {
        try {
            return decoder.apply(body);
        } catch (WireFormatException e) {
            throw new InvalidAnswerException(name, what + ": " + e.getMessage(), e);
        }
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
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

    /** A static export is a copy of buried chain data: it holds no fee estimates. */
    @Override
    public FeeEstimate feeEstimate(int targetBlocks) {
        return FeeEstimate.none(
                targetBlocks,
                name() + ": a static export holds no fee estimates; give --fee-rate, or a --server whose node"
                        + " estimates fees");
    }

    /** A file that passed its size and SHA-256 check holds something invalid. */
    private InvalidAnswerException invalid(String message) {
        return new InvalidAnswerException(name, message);
    }
}
