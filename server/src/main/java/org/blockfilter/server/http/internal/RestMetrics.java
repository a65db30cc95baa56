package org.blockfilter.server.http.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.blockfilter.server.read.FilterIndexReader;

/**
 * The server's Prometheus metrics: index height, node height and lag, blocks indexed, request
 * counts and latency by route and status, bytes served and server CPU by route, and BIP 37 work.
 * No Javalin; thread-safe.
 */
public final class RestMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ConcurrentHashMap<String, RouteMeters> routes = new ConcurrentHashMap<>();
    private final Counter bip37Blocks;
    private final Counter bip37CpuSeconds;
    private final Counter bip37Bytes;
    private final Counter bip37Scans;

    private record RouteMeters(Timer latency, Counter bytes, Counter cpuSeconds) {}

    public RestMetrics(
            FilterIndexReader index,
            Supplier<Integer> nodeHeight,
            java.util.Optional<org.blockfilter.server.index.NodeHealth> health) {
        health.ifPresent(h -> {
            for (org.blockfilter.server.index.Fault.Kind kind : org.blockfilter.server.index.Fault.Kind.values()) {
                io.micrometer.core.instrument.FunctionCounter.builder("blockfilter_faults", h, x -> x.count(kind))
                        .tag("kind", kind.label())
                        .description("Faults of indexer passes and node calls since start, by kind")
                        .register(registry);
            }
        });
        Gauge.builder("blockfilter_index_height", () -> index.tip().height())
                .description("Height of the highest indexed best-chain block")
                .register(registry);
        Gauge.builder("blockfilter_index_blocks", () -> index.tip().height() + 1)
                .description("Best-chain blocks indexed (height + 1)")
                .register(registry);
        Gauge.builder("blockfilter_node_height", () -> orNaN(nodeHeight.get()))
                .description("Height of the node's best chain (NaN if unreachable)")
                .register(registry);
        Gauge.builder("blockfilter_index_lag_blocks", () -> {
                    Integer node = nodeHeight.get();
                    return node == null
                            ? Double.NaN
                            : Math.max(0, node - index.tip().height());
                })
                .description("Blocks the index is behind the node")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder(
                        "blockfilter_store_damaged_reads", index, FilterIndexReader::damagedReads)
                .description("Index reads that failed on damaged files (checksum mismatch)")
                .register(registry);
        Gauge.builder("blockfilter_store_damaged_files", () -> index.damage().size())
                .description("Damaged index files found by reads since start")
                .register(registry);
        bip37Blocks = Counter.builder("blockfilter_bip37_scanned_blocks")
                .description("Blocks scanned for BIP 37 clients")
                .register(registry);
        bip37CpuSeconds = Counter.builder("blockfilter_bip37_cpu_seconds")
                .description("Server CPU time spent on BIP 37 scans")
                .register(registry);
        bip37Bytes = Counter.builder("blockfilter_bip37_payload_bytes")
                .description("merkleblock and transaction bytes produced for BIP 37 clients")
                .register(registry);
        bip37Scans = Counter.builder("blockfilter_bip37_scans")
                .description("BIP 37 scan requests served")
                .register(registry);
    }

    private static double orNaN(Integer v) {
        return v == null ? Double.NaN : v;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Records one finished request; route is the matched path template. */
    public void request(String method, String route, int status, long nanos, long bytes, long cpuNanos) {
        RouteMeters m = routes.computeIfAbsent(method + ' ' + route + ' ' + status, k -> {
            Tags tags = Tags.of("method", method, "route", route, "status", Integer.toString(status));
            return new RouteMeters(
                    Timer.builder("blockfilter_http_requests")
                            .tags(tags)
                            .description("HTTP requests by route")
                            .register(registry),
                    Counter.builder("blockfilter_http_response_bytes")
                            .tags(tags)
                            .description("Response body bytes before compression")
                            .register(registry),
                    Counter.builder("blockfilter_http_cpu_seconds")
                            .tags(tags)
                            .description("Server thread CPU time in handlers")
                            .register(registry));
        });
        m.latency().record(nanos, TimeUnit.NANOSECONDS);
        m.bytes().increment(bytes);
        m.cpuSeconds().increment(cpuNanos / 1e9);
    }

    public void bip37(Bip37Scanner.ScanResult r) {
        bip37Scans.increment();
        bip37Blocks.increment(r.scannedBlocks());
        bip37CpuSeconds.increment(r.cpuNanos() / 1e9);
        bip37Bytes.increment(r.bytes());
    }

    public String scrape() {
        return registry.scrape();
    }
}
