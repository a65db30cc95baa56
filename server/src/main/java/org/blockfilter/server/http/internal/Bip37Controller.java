package org.blockfilter.server.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import java.util.List;
import java.util.Objects;

/** Handler of {@code POST /api/v1/bip37/scan}: parses the JSON body, runs the scan, reports its cost. */
public final class Bip37Controller {
    private final Bip37Scanner scanner;
    private final RestMetrics metrics;

    public Bip37Controller(Bip37Scanner scanner, RestMetrics metrics) {
        this.scanner = Objects.requireNonNull(scanner, "scanner");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    record BlockJson(int height, String hash, String merkleBlock, List<String> transactions) {}

    record ScanJson(
            List<BlockJson> blocks,
            int scannedBlocks,
            long cpuNanos,
            long bytes,
            boolean complete,
            Integer nextHeight) {}

    public void scan(Context ctx) {
        JsonNode body = ApiController.readJson(ctx.bodyAsBytes());
        JsonNode filter = body.get("filter");
        if (filter == null || !filter.isTextual()) {
            throw new BadRequestException("bad_json", "body needs \"filter\": the filterload payload as hex");
        }
        byte[] filterload = ApiController.parseHex("filter", filter.asText());
        int start = height(body, "startHeight");
        int stop = height(body, "stopHeight");
        Bip37Scanner.ScanResult r = scanner.scan(filterload, start, stop);
        metrics.bip37(r);
        ScanJson json = new ScanJson(
                r.blocks().stream()
                        .map(b -> new BlockJson(
                                b.height(),
                                b.hash().toString(),
                                HashHex.hex(b.merkleBlock()),
                                b.transactions().stream().map(HashHex::hex).toList()))
                        .toList(),
                r.scannedBlocks(),
                r.cpuNanos(),
                r.bytes(),
                r.complete(),
                r.nextHeight());
        Http.send(ctx, 200, Http.JSON, Representations.json(json), CachePolicy.NO_STORE);
    }

    private static int height(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new BadRequestException("bad_json", "body needs \"" + field + "\" as an integer");
        }
        if (!v.canConvertToInt() || v.asInt() < 0) {
            throw new BadRequestException("bad_" + field, field + " must be 0.." + Integer.MAX_VALUE + ": " + v);
        }
        return v.asInt();
    }
}
