package org.blockfilter.server.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Bip157;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;

/** Handlers of our {@code /api/v1} read endpoints and transaction relay: IO and validation only. */
public final class ApiController {
    private final FilterService service;
    private final CachePolicy cache;

    public ApiController(FilterService service, CachePolicy cache) {
        this.service = Objects.requireNonNull(service, "service");
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    public void status(Context ctx) {
        Http.send(ctx, 200, Http.JSON, Representations.json(service.status()), cache.tipDependent());
    }

    public void filter(Context ctx) {
        String raw = ctx.pathParam("hashOrHeight");
        IndexedFilter f;
        if (raw.length() == 64) {
            f = service.filter(Http.hash("block hash", raw));
        } else if (raw.matches("-?[0-9]+")) {
            f = service.filter(Http.nonNegativeInt("height", raw));
        } else {
            throw new BadRequestException(
                    "bad_hash_or_height",
                    "expected a 64-hex-digit block hash or a height, got " + raw.length() + " characters: "
                            + Http.abbreviate(raw));
        }
        String etag = '"' + f.filterHash().toString() + '"';
        String cacheControl = cache.forHeight(f.active() ? f.height() : -1);
        ctx.header("ETag", etag);
        if (Http.matchesETag(ctx.header("If-None-Match"), etag)) {
            ctx.header("Cache-Control", cacheControl);
            ctx.header("Vary", "Accept, Accept-Encoding");
            ctx.status(304);
            return;
        }
        Http.sendEither(ctx, () -> Representations.filterJson(f), f::filter, cacheControl);
    }

    /** Streamed from one snapshot: a 1000-filter answer is ~20 MB, never held whole. */
    public void filters(Context ctx) {
        try (FilterIndexReader.RangeCursor r = range(ctx, Bip157.MAX_CFILTERS)) {
            Http.streamEither(
                    ctx,
                    out -> Representations.writeRangeJson(r, out),
                    out -> Representations.writeRangeBinary(r, out),
                    cache.forHeight(r.stopHeight()));
        }
    }

    public void filterHeaders(Context ctx) {
        Representations.FilterHeaders h;
        int stopHeight;
        try (FilterIndexReader.RangeCursor r = range(ctx, Bip157.MAX_CFHEADERS)) {
            h = Representations.FilterHeaders.of(r);
            stopHeight = r.stopHeight();
        }
        Http.sendEither(
                ctx,
                () -> Representations.filterHeadersJson(h),
                () -> Representations.filterHeadersBinary(h),
                cache.forHeight(stopHeight));
    }

    private FilterIndexReader.RangeCursor range(Context ctx, int max) {
        int start = Http.nonNegativeInt("start_height", Http.requiredQuery(ctx, "start_height"));
        Sha256Hash stop = Http.hash("stop_hash", Http.requiredQuery(ctx, "stop_hash"));
        return service.openRange(start, stop, max);
    }

    public void checkpoints(Context ctx) {
        String raw = ctx.queryParam("stop_hash");
        Optional<Sha256Hash> stop = raw == null ? Optional.empty() : Optional.of(Http.hash("stop_hash", raw));
        FilterService.Checkpoints c = service.checkpoints(stop);
        String cacheControl = stop.isPresent() ? cache.forHeight(c.stopHeight()) : cache.tipDependent();
        Http.sendEither(
                ctx,
                () -> Representations.checkpointsJson(c),
                () -> Representations.checkpointsBinary(c),
                cacheControl);
    }

    public void headers(Context ctx) {
        int start = Http.nonNegativeInt("start_height", Http.requiredQuery(ctx, "start_height"));
        int count = Http.nonNegativeInt("count", Http.requiredQuery(ctx, "count"));
        if (count < 1 || count > Limits.MAX_HEADERS) {
            throw new BadRequestException("bad_count", "count must be 1.." + Limits.MAX_HEADERS + ": " + count);
        }
        FilterService.Headers h = service.headers(start, count);
        String cacheControl = h.headers().size() < count ? cache.tipDependent() : cache.forHeight(h.lastHeight());
        Http.sendEither(
                ctx,
                () -> Representations.headersJson(h.headers()),
                () -> Representations.headersBinary(h.headers()),
                cacheControl);
    }

    public void block(Context ctx) {
        FilterService.RawBlock b = service.block(Http.hash("block hash", ctx.pathParam("hash")));
        String cacheControl =
                cache.forHeight(b.height().isPresent() ? b.height().getAsInt() : -1);
        Http.sendEither(ctx, () -> Representations.blockJson(b), b::block, cacheControl);
    }

    /** All of {@link Limits#FEE_TARGETS}, or the one {@code target} (1..1008) asked for. */
    public void feeEstimates(Context ctx) {
        String raw = ctx.queryParam("target");
        List<Integer> targets = Limits.FEE_TARGETS;
        if (raw != null) {
            int t = Http.nonNegativeInt("target", raw);
            if (t < 1 || t > Limits.MAX_FEE_TARGET) {
                throw new BadRequestException(
                        "bad_target", "target must be 1.." + Limits.MAX_FEE_TARGET + " blocks: " + t);
            }
            targets = List.of(t);
        }
        Http.send(ctx, 200, Http.JSON, Representations.json(service.feeEstimates(targets)), cache.tipDependent());
    }

    public void relay(Context ctx) {
        byte[] raw;
        String contentType = ctx.contentType();
        if (contentType != null && contentType.startsWith(Http.OCTET_STREAM)) {
            raw = ctx.bodyAsBytes();
        } else {
            raw = hexField(ctx.bodyAsBytes(), "hex");
        }
        if (raw.length == 0) {
            throw new BadRequestException("bad_transaction", "empty transaction");
        }
        checkTransaction(raw);
        Http.send(ctx, 200, Http.JSON, Representations.txidJson(service.relay(raw)), CachePolicy.NO_STORE);
    }

    /** Rejects bytes that are not exactly one transaction before bothering the node. */
    static void checkTransaction(byte[] raw) {
        ByteBuffer buf = ByteBuffer.wrap(raw);
        try {
            Transaction.read(buf);
        } catch (ProtocolException | BufferUnderflowException | IllegalArgumentException e) {
            throw new BadRequestException("bad_transaction", "not a serialized transaction: " + e.getMessage());
        }
        if (buf.hasRemaining()) {
            throw new BadRequestException("bad_transaction", buf.remaining() + " trailing bytes after the transaction");
        }
    }

    /** Reads a JSON object body and decodes its hex string field. */
    static byte[] hexField(byte[] body, String field) {
        JsonNode node = readJson(body);
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new BadRequestException(
                    "bad_json", "body must be a JSON object with a string field \"" + field + "\"");
        }
        return parseHex(field, value.asText());
    }

    static JsonNode readJson(byte[] body) {
        JsonNode node;
        try {
            node = Representations.mapper().readTree(body);
        } catch (IOException e) {
            throw new BadRequestException("bad_json", "body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new BadRequestException("bad_json", "body must be a JSON object");
        }
        return node;
    }

    static byte[] parseHex(String field, String hex) {
        try {
            return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("bad_hex", field + " is not valid hex (even number of hex digits)");
        }
    }
}
