package org.blockfilter.server.http;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.compression.Gzip;
import io.javalin.config.JavalinConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.blockfilter.server.http.internal.ApiController;
import org.blockfilter.server.http.internal.BadRequestException;
import org.blockfilter.server.http.internal.BinaryFilterFastPath;
import org.blockfilter.server.http.internal.Bip37Controller;
import org.blockfilter.server.http.internal.Bip37Scanner;
import org.blockfilter.server.http.internal.CachePolicy;
import org.blockfilter.server.http.internal.CoreRest;
import org.blockfilter.server.http.internal.CoreRestController;
import org.blockfilter.server.http.internal.CoreRestException;
import org.blockfilter.server.http.internal.DemoController;
import org.blockfilter.server.http.internal.DocsController;
import org.blockfilter.server.http.internal.FilterService;
import org.blockfilter.server.http.internal.Http;
import org.blockfilter.server.http.internal.JettyErrorPages;
import org.blockfilter.server.http.internal.NotFoundException;
import org.blockfilter.server.http.internal.PercentEscapes;
import org.blockfilter.server.http.internal.Representations;
import org.blockfilter.server.http.internal.RestMetrics;
import org.blockfilter.server.http.internal.UnavailableException;
import org.blockfilter.server.node.NodeException;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block-filter server's HTTP front: all routes are declared in {@link #routes}, every error
 * type is mapped to its status in {@link #errors}. Start with {@link #start}, stop with
 * {@link #close}. Thread-safe; holds no static state.
 */
public final class RestServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String T0 = "blockfilter.t0";
    private static final String CPU0 = "blockfilter.cpu0";

    private final Javalin app;
    private final RestMetrics metrics;
    private final RestConfig config;

    private RestServer(RestConfig config, FilterIndexReader index, NodeGateway node, Optional<Faucet> faucet) {
        this.config = config;
        FilterService service = new FilterService(index, node, config.network());
        this.metrics = new RestMetrics(index, service::nodeHeightOrNull, node.health());
        CachePolicy cache = new CachePolicy(index, config.buriedDepth(), config.tipMaxAgeSeconds());
        ApiController api = new ApiController(service, cache);
        Bip37Controller bip37 = new Bip37Controller(
                new Bip37Scanner(
                        index,
                        service,
                        node,
                        config.bip37MaxBlocks(),
                        config.bip37WorkBudget(),
                        config.bip37CpuBudgetNanos(),
                        config.blockCacheBytes()),
                metrics);
        CoreRestController core = new CoreRestController(new CoreRest(service), cache);
        DocsController docs = new DocsController(metrics);
        BinaryFilterFastPath fastPath = new BinaryFilterFastPath(index, cache, metrics);
        DemoController demo = new DemoController(faucet);
        this.app = Javalin.create(cfg -> {
            configure(cfg);
            // In front of Javalin, which Jetty nests inside it: binary filters and ranges that need
            // nothing but the index (everything else, errors included, goes on to the routes below).
            cfg.jetty.modifyServer(server -> server.setHandler(fastPath));
            // Before routing: the router decodes path parameters eagerly (a 500 on %u0031) and
            // drops query parameters it cannot decode (stop_hash=%ZZ read as absent).
            cfg.routes.before(ctx -> {
                if (!ctx.path().startsWith("/rest/")) {
                    PercentEscapes.check(ctx.req().getRequestURI(), ctx.queryString());
                }
            });
            routes(cfg.routes, api, bip37, core, docs, demo);
            errors(cfg.routes);
            measure(cfg.routes);
        });
    }

    /** Starts a server bound to {@code config.host():config.port()} (0 = a free port), without a faucet. */
    public static RestServer start(RestConfig config, FilterIndexReader index, NodeGateway node) {
        return start(config, index, node, Optional.empty());
    }

    /** {@link #start(RestConfig, FilterIndexReader, NodeGateway)} with the demo's faucet, if any. */
    public static RestServer start(
            RestConfig config, FilterIndexReader index, NodeGateway node, Optional<Faucet> faucet) {
        RestServer server = new RestServer(
                Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(index, "index"),
                Objects.requireNonNull(node, "node"),
                Objects.requireNonNull(faucet, "faucet"));
        server.app.start();
        LOG.info("REST server listening on {}", server.baseUri());
        return server;
    }

    /** Every route of the server, in one place. */
    private static void routes(
            RoutesConfig r,
            ApiController api,
            Bip37Controller bip37,
            CoreRestController core,
            DocsController docs,
            DemoController demo) {
        r.get("/api/v1/status", api::status);
        r.get("/api/v1/filters/{hashOrHeight}", api::filter);
        r.get("/api/v1/filters", api::filters);
        r.get("/api/v1/filter-headers", api::filterHeaders);
        r.get("/api/v1/checkpoints", api::checkpoints);
        r.get("/api/v1/headers", api::headers);
        r.get("/api/v1/blocks/{hash}", api::block);
        r.post("/api/v1/transactions", api::relay);
        r.get("/api/v1/fee-estimates", api::feeEstimates);
        r.post("/api/v1/bip37/scan", bip37::scan);
        r.post("/api/v1/demo/faucet", demo::faucet);
        r.get("/api/v1/openapi.json", docs::openApi);
        r.get("/swagger", docs::swagger);
        r.get("/metrics", docs::metrics);
        // Wildcards, not path parameters: Core's handlers read the raw URI, and the router would
        // reject a malformed escape in a path parameter before they see it.
        r.get(CoreRestController.FILTER_PREFIX + "*", core::blockFilter);
        r.get(CoreRestController.HEADERS_PREFIX + "*", core::blockFilterHeaders);
    }

    /** Every error type and its status, in one place; one JSON error shape (Core endpoints answer as Core). */
    private void errors(RoutesConfig r) {
        r.exception(BadRequestException.class, (e, ctx) -> error(ctx, 400, e.code(), e.getMessage()));
        r.exception(NotFoundException.class, (e, ctx) -> error(ctx, 404, e.code(), e.getMessage()));
        r.exception(UnavailableException.class, (e, ctx) -> {
            ctx.header("Retry-After", Integer.toString(config.retryAfterSeconds()));
            error(ctx, 503, e.code(), e.getMessage());
        });
        r.exception(NodeException.class, (e, ctx) -> {
            if (e.kind() == NodeException.Kind.REJECTED) {
                error(ctx, 400, "tx_rejected", e.getMessage());
            } else {
                ctx.header("Retry-After", Integer.toString(config.retryAfterSeconds()));
                error(ctx, 503, "node_unavailable", e.getMessage());
            }
        });
        r.exception(StoreException.class, (e, ctx) -> {
            if (e.damaged()) {
                error(ctx, 503, "index_damaged", e.getMessage());
            } else {
                LOG.error("store error serving {} {}", ctx.method(), ctx.path(), e);
                error(ctx, 500, "internal", "internal server error");
            }
        });
        r.exception(CoreRestException.class, (e, ctx) -> coreError(ctx, e));
        r.exception(
                HttpResponseException.class,
                (e, ctx) -> error(
                        ctx,
                        e.getStatus(),
                        JettyErrorPages.codeOf(e.getStatus()),
                        e.getStatus() == 405
                                ? "method " + ctx.method() + " is not allowed on " + ctx.path()
                                : e.getMessage()));
        r.exception(Exception.class, (e, ctx) -> {
            LOG.error("unexpected error serving {} {}", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal", "internal server error");
        });
    }

    private static void coreError(Context ctx, CoreRestException e) {
        Http.send(
                ctx,
                e.status(),
                "text/plain",
                (e.getMessage() + "\r\n").getBytes(StandardCharsets.UTF_8),
                CachePolicy.NO_STORE);
    }

    private static void error(Context ctx, int status, String code, String message) {
        Http.send(ctx, status, Http.JSON, Representations.errorJson(status, code, message), CachePolicy.NO_STORE);
    }

    /** Request count, latency, bytes and CPU by route, recorded after every request (errors included). */
    private void measure(RoutesConfig r) {
        r.before(ctx -> {
            ctx.attribute(T0, System.nanoTime());
            ctx.attribute(CPU0, THREADS.getCurrentThreadCpuTime());
        });
        r.after(ctx -> {
            Long t0 = ctx.attribute(T0);
            Long cpu0 = ctx.attribute(CPU0);
            if (t0 == null || cpu0 == null) {
                return;
            }
            Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
            String route = matched == null ? "unmatched" : matched.path;
            Long bytes = ctx.attribute(Http.SENT_BYTES);
            metrics.request(
                    ctx.method().name(),
                    route,
                    ctx.status().getCode(),
                    System.nanoTime() - t0,
                    bytes == null ? 0 : bytes,
                    THREADS.getCurrentThreadCpuTime() - cpu0);
        });
    }

    private void configure(JavalinConfig cfg) {
        cfg.jetty.host = config.host();
        cfg.jetty.port = config.port();
        cfg.startup.showJavalinBanner = false;
        cfg.startup.showOldJavalinVersionWarning = false;
        cfg.http.prefer405over404 = true;
        cfg.jetty.modifyServer(server -> server.setErrorHandler(new JettyErrorPages()));
        if (config.compression() == RestConfig.Compression.GZIP) {
            CompressionStrategy gzip = new CompressionStrategy(null, new Gzip(6));
            gzip.setDefaultMinSizeForCompression(config.gzipMinBytes());
            List<String> excluded = new ArrayList<>(gzip.getExcludedMimeTypes());
            excluded.add(Http.OCTET_STREAM);
            gzip.setExcludedMimeTypes(excluded);
            cfg.http.compressionStrategy = gzip;
        } else {
            cfg.http.compressionStrategy = CompressionStrategy.NONE;
        }
        cfg.staticFiles.enableWebjars();
        cfg.bundledPlugins.enableCors(cors -> cors.addRule(rule -> {
            rule.anyHost();
            rule.exposeHeader("ETag");
            rule.exposeHeader("Retry-After");
        }));
    }

    /** The bound port. */
    public int port() {
        return app.port();
    }

    /** {@code http://host:port}. */
    public URI baseUri() {
        return URI.create("http://" + config.host() + ":" + port());
    }

    /** The Prometheus registry behind {@code /metrics}, for the indexer's own meters. */
    public MeterRegistry meterRegistry() {
        return metrics.registry();
    }

    /** The (method, path) of every registered HTTP route, for the OpenAPI consistency test. */
    public List<String> routeList() {
        return app.unsafe.internalRouter.allHttpHandlers().stream()
                .map(p -> p.endpoint)
                .filter(e -> e.method.isHttpMethod())
                .map(e -> e.method.name() + " " + e.path)
                .toList();
    }

    @Override
    public void close() {
        app.stop();
    }
}
