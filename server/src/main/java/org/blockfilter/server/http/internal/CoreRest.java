package org.blockfilter.server.http.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;

/**
 * Bitcoin Core's REST {@code blockfilter} and {@code blockfilterheaders} endpoints, answered byte
 * for byte as Core's {@code src/rest.cpp} does: the same URI parsing, the same order of checks,
 * the same bodies, content types, status codes and error texts. No Javalin; thread-safe.
 */
public final class CoreRest {
    static final String JSON = "application/json";
    static final String TEXT = "text/plain";
    static final String BINARY = "application/octet-stream";
    private static final String FORMATS = ".bin, .hex, .json";
    private static final String BASIC = "basic";
    private static final byte BASIC_FILTER_TYPE = 0;
    private static final String STILL_INDEXING =
            "Filter not found. Block filters are still in the process of being indexed.";

    private final FilterService service;

    public CoreRest(FilterService service) {
        this.service = Objects.requireNonNull(service, "service");
    }

    /** A successful Core REST answer; {@code height} is the newest best-chain block it covers, or -1. */
    public record Response(String contentType, byte[] body, int height) {}

    enum Format {
        UNDEF,
        BIN,
        HEX,
        JSON
    }

    private record Parsed(String param, Format format) {}

    /** Core's ParseDataFormat: a known suffix is split off; otherwise the whole part is the param. */
    private static Parsed parseFormat(String uriPart) {
        int q = uriPart.indexOf('?');
        String param = q < 0 ? uriPart : uriPart.substring(0, q);
        int dot = param.lastIndexOf('.');
        if (dot < 0) {
            return new Parsed(param, Format.UNDEF);
        }
        Format f = switch (param.substring(dot + 1)) {
            case "bin" -> Format.BIN;
            case "hex" -> Format.HEX;
            case "json" -> Format.JSON;
            default -> Format.UNDEF;
        };
        return f == Format.UNDEF ? new Parsed(param, f) : new Parsed(param.substring(0, dot), f);
    }

    /** {@code GET /rest/blockfilter/<filtertype>/<blockhash>.<bin|hex|json>}; uriPart is what follows "/rest/blockfilter/". */
    public Response blockFilter(String uriPart) {
        Parsed parsed = parseFormat(uriPart);
        String[] parts = parsed.param().split("/", -1);
        if (parts.length != 2) {
            throw new CoreRestException(400, "Invalid URI format. Expected /rest/blockfilter/<filtertype>/<blockhash>");
        }
        Sha256Hash hash = HashHex.parseHash(parts[1]);
        if (hash == null) {
            throw new CoreRestException(400, "Invalid hash: " + parts[1]);
        }
        checkFilterType(parts[0]);
        Optional<IndexedFilter> filter = service.index().filter(hash);
        if (filter.isEmpty()) {
            if (service.unknownBlock(hash) instanceof UnavailableException) {
                throw new CoreRestException(404, STILL_INDEXING);
            }
            throw new CoreRestException(404, parts[1] + " not found");
        }
        IndexedFilter f = filter.get();
        int height = f.active() ? f.height() : -1;
        return switch (parsed.format()) {
            case BIN -> new Response(BINARY, serializeBlockFilter(f), height);
            case HEX -> new Response(TEXT, hexLine(serializeBlockFilter(f)), height);
            case JSON ->
                new Response(
                        JSON,
                        ("{\"filter\":\"" + HashHex.hex(f.filter()) + "\"}\n").getBytes(StandardCharsets.US_ASCII),
                        height);
            case UNDEF -> throw formatNotFound();
        };
    }

    /**
     * {@code GET /rest/blockfilterheaders/<filtertype>/<blockhash>.<ext>?count=<count>} and the
     * deprecated {@code /<filtertype>/<count>/<blockhash>.<ext>}; countParam is the query value or null.
     */
    public Response blockFilterHeaders(String uriPart, String countParam) {
        Parsed parsed = parseFormat(uriPart);
        String[] parts = parsed.param().split("/", -1);
        String rawCount;
        String rawHash;
        if (parts.length == 3) {
            rawHash = parts[2];
            rawCount = parts[1];
        } else if (parts.length == 2) {
            rawHash = parts[1];
            rawCount = countParam == null ? "5" : countParam;
        } else {
            throw new CoreRestException(
                    400,
                    "Invalid URI format. Expected /rest/blockfilterheaders/<filtertype>/<blockhash>.<ext>?count=<count>");
        }
        int count = parseCount(rawCount);
        if (count < 1) {
            throw new CoreRestException(
                    400,
                    "Header count is invalid or out of acceptable range (1-" + Limits.MAX_REST_HEADERS_RESULTS + "): "
                            + rawCount);
        }
        Sha256Hash hash = HashHex.parseHash(rawHash);
        if (hash == null) {
            throw new CoreRestException(400, "Invalid hash: " + rawHash);
        }
        checkFilterType(parts[0]);
        HeaderRun run = filterHeaders(hash, count);
        List<Sha256Hash> headers = run.headers();
        // Fewer headers than asked for means the answer grows with the tip.
        int height = headers.size() == count ? run.lastHeight() : -1;
        WireWriter bin = new WireWriter(32 * headers.size());
        headers.forEach(bin::hash);
        return switch (parsed.format()) {
            case BIN -> new Response(BINARY, bin.toByteArray(), height);
            case HEX -> new Response(TEXT, hexLine(bin.toByteArray()), height);
            case JSON -> new Response(JSON, jsonArray(headers), height);
            case UNDEF -> throw formatNotFound();
        };
    }

    /**
     * Core walks the active chain from the block for up to count blocks; a block that is not on it
     * gives no headers, and a block of the node's chain that is not indexed yet is a 404.
     */
    private record HeaderRun(List<Sha256Hash> headers, int lastHeight) {}

    private HeaderRun filterHeaders(Sha256Hash start, int count) {
        FilterIndexReader index = service.index();
        OptionalInt startHeight = index.heightOf(start);
        if (startHeight.isEmpty()) {
            if (index.filter(start).isEmpty() && service.unknownBlock(start) instanceof UnavailableException) {
                throw new CoreRestException(404, STILL_INDEXING);
            }
            return new HeaderRun(List.of(), -1);
        }
        int first = startHeight.getAsInt();
        long wantedLast = (long) first + count - 1;
        int tip = index.tip().height();
        if (wantedLast > tip) {
            Integer nodeHeight = service.nodeHeightOrNull();
            if (nodeHeight != null && nodeHeight > tip) {
                throw new CoreRestException(404, STILL_INDEXING);
            }
        }
        int last = (int) Math.min(wantedLast, tip);
        Optional<FilterIndexReader.RangeCursor> range =
                index.hashAt(last).flatMap(stop -> index.openRange(first, stop));
        if (range.isEmpty()) {
            return new HeaderRun(List.of(), -1);
        }
        // Streamed: only the headers are kept, not up to 2,000 filters.
        try (FilterIndexReader.RangeCursor filters = range.get()) {
            List<Sha256Hash> headers = new ArrayList<>(last - first + 1);
            while (filters.hasNext()) {
                headers.add(filters.next().header());
            }
            return new HeaderRun(headers, filters.stopHeight());
        }
    }

    /** Core's ToIntegral&lt;size_t&gt; then the 1..2000 check; -1 for anything invalid or out of range. */
    private static int parseCount(String raw) {
        if (raw.isEmpty() || raw.length() > 20) {
            return -1;
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        String digits = raw.replaceFirst("^0+(?=.)", "");
        if (digits.length() > 4) {
            return -1;
        }
        int n = Integer.parseInt(digits);
        return n >= 1 && n <= Limits.MAX_REST_HEADERS_RESULTS ? n : -1;
    }

    private static void checkFilterType(String name) {
        if (!BASIC.equals(name)) {
            throw new CoreRestException(400, "Unknown filtertype " + name);
        }
    }

    private static CoreRestException formatNotFound() {
        return new CoreRestException(404, "output format not found (available: " + FORMATS + ")");
    }

    /** Core's BlockFilter serialization: block hash (wire order), filter type byte, CompactSize length, filter. */
    static byte[] serializeBlockFilter(IndexedFilter f) {
        return new WireWriter(32 + 1 + 5 + f.filterLength())
                .hash(f.blockHash())
                .u8(BASIC_FILTER_TYPE)
                .varBytes(f.filter())
                .toByteArray();
    }

    private static byte[] hexLine(byte[] bytes) {
        return (HashHex.hex(bytes) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] jsonArray(List<Sha256Hash> hashes) {
        StringBuilder sb = new StringBuilder(2 + 67 * hashes.size() + 1).append('[');
        for (int i = 0; i < hashes.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('"').append(hashes.get(i)).append('"');
        }
        return sb.append("]\n").toString().getBytes(StandardCharsets.US_ASCII);
    }
}
