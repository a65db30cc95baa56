package org.blockfilter.server.http;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of the REST server. Immutable and thread-safe; no component is null. Use {@link #defaults()}
 * and the {@code withX} copies (there is one for each setting a caller changes; add one when a caller needs it).
 *
 * @param host              address to bind; 127.0.0.1 unless the operator exposes it on purpose
 * @param port              TCP port, 0 for a free one
 * @param network           chain name reported by {@code /api/v1/status} (e.g. "regtest")
 * @param buriedDepth       blocks on top of a block after which responses about it are cached as immutable
 * @param tipMaxAgeSeconds  max-age for responses that depend on the tip
 * @param retryAfterSeconds Retry-After sent with 503 while the index is behind
 * @param bip37MaxBlocks    most blocks one BIP 37 scan may cover
 * @param bip37WorkBudget   most blocks x filter bytes one BIP 37 scan may cost
 * @param bip37CpuBudgetNanos server CPU time after which a BIP 37 scan stops and returns what it has
 * @param blockCacheBytes   size of the raw-block cache used by the BIP 37 path
 * @param gzipMinBytes      responses smaller than this are not compressed
 * @param compression       whether JSON and hex responses are gzipped for clients that accept it
 *                          (binary responses never are: GCS filters are already dense)
 */
public record RestConfig(
        String host,
        int port,
        String network,
        int buriedDepth,
        int tipMaxAgeSeconds,
        int retryAfterSeconds,
        int bip37MaxBlocks,
        long bip37WorkBudget,
        long bip37CpuBudgetNanos,
        long blockCacheBytes,
        int gzipMinBytes,
        Compression compression) {

    /** HTTP response compression: the {@code --http-compression} values. */
    public enum Compression {
        /** gzip JSON and hex bodies of at least {@code gzipMinBytes} when the client sends Accept-Encoding: gzip. */
        GZIP,
        /** Never compress. */
        NONE;

        /** The command-line spelling ("gzip", "none"). */
        public String cliName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * Parses a command-line value.
         *
         * @throws IllegalArgumentException naming the accepted values
         */
        public static Compression parse(String value) {
            for (Compression c : values()) {
                if (c.cliName().equals(value)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("expected gzip or none, got \"" + value + "\"");
        }
    }

    public RestConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(compression, "compression");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (buriedDepth < 0
                || tipMaxAgeSeconds < 0
                || retryAfterSeconds < 1
                || bip37MaxBlocks < 1
                || bip37WorkBudget < 1
                || bip37CpuBudgetNanos < 1
                || blockCacheBytes < 0
                || gzipMinBytes < 0) {
            throw new IllegalArgumentException("invalid REST configuration: " + this);
        }
    }

    /**
     * Loopback, free port, regtest, buried after 6 blocks, 5 s tip max-age, BIP 37 limits of 1000
     * blocks, no compression (gzip costs 4-14x the CPU of a JSON answer and saves fewer bytes than
     * asking for binary: docs/benchmarks.md, "Serving at mainnet sizes").
     */
    public static RestConfig defaults() {
        return new RestConfig(
                "127.0.0.1",
                0,
                "regtest",
                6,
                5,
                5,
                1000,
                10_000_000L,
                2_000_000_000L,
                64L << 20,
                1024,
                Compression.NONE);
    }

    public RestConfig withHost(String v) {
        return edit(f -> f.host = v);
    }

    public RestConfig withPort(int v) {
        return edit(f -> f.port = v);
    }

    public RestConfig withNetwork(String v) {
        return edit(f -> f.network = v);
    }

    public RestConfig withBuriedDepth(int v) {
        return edit(f -> f.buriedDepth = v);
    }

    public RestConfig withBip37WorkBudget(long v) {
        return edit(f -> f.bip37WorkBudget = v);
    }

    public RestConfig withBip37CpuBudgetNanos(long v) {
        return edit(f -> f.bip37CpuBudgetNanos = v);
    }

    public RestConfig withCompression(Compression v) {
        return edit(f -> f.compression = v);
    }

    /** This configuration with {@code change} applied to a copy of its components, validated again. */
    private RestConfig edit(Consumer<Fields> change) {
        Fields f = new Fields(this);
        change.accept(f);
        return f.toConfig();
    }

    /**
     * The components as mutable fields, for the {@code withX} copies: with the record header, the
     * one place that lists them all, so a new component is added here and in the header only.
     */
    private static final class Fields {
        String host;
        int port;
        String network;
        int buriedDepth;
        int tipMaxAgeSeconds;
        int retryAfterSeconds;
        int bip37MaxBlocks;
        long bip37WorkBudget;
        long bip37CpuBudgetNanos;
        long blockCacheBytes;
        int gzipMinBytes;
        Compression compression;

        Fields(RestConfig c) {
            host = c.host;
            port = c.port;
            network = c.network;
            buriedDepth = c.buriedDepth;
            tipMaxAgeSeconds = c.tipMaxAgeSeconds;
            retryAfterSeconds = c.retryAfterSeconds;
            bip37MaxBlocks = c.bip37MaxBlocks;
            bip37WorkBudget = c.bip37WorkBudget;
            bip37CpuBudgetNanos = c.bip37CpuBudgetNanos;
            blockCacheBytes = c.blockCacheBytes;
            gzipMinBytes = c.gzipMinBytes;
            compression = c.compression;
        }

        RestConfig toConfig() {
            return new RestConfig(
                    host,
                    port,
                    network,
                    buriedDepth,
                    tipMaxAgeSeconds,
                    retryAfterSeconds,
                    bip37MaxBlocks,
                    bip37WorkBudget,
                    bip37CpuBudgetNanos,
                    blockCacheBytes,
                    gzipMinBytes,
                    compression);
        }
    }
}
