package org.blockfilter.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.embedded.LiveDemo;
import org.blockfilter.server.export.StaticExport;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.NodeHealth;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.node.NodeChain;
import org.blockfilter.server.node.RpcNodeGateway;
import org.blockfilter.server.p2p.P2pConfig;
import org.blockfilter.server.p2p.P2pServer;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.DirectoryTrees;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block-filter server assembled in one place: a node (JSON-RPC, or the embedded regtest demo),
 * the index store in a data directory, the indexer following the node, the REST server and the
 * BIP 157 P2P listener, all answering from one index. What {@link ServerMain} runs, for use as a
 * library:
 *
 * <pre>{@code
 * try (BlockfilterServer server = BlockfilterServer.builder()
 *         .node(URI.create("http://user:pass@127.0.0.1:8332"))
 *         .dataDir(Path.of("blockfilter-data"))
 *         .rest(RestConfig.defaults().withPort(8157))
 *         .start()) {
 *     System.out.println(server.rest().orElseThrow().baseUri());
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link BlockfilterServerBuilder#start()} brings the parts up in order (node, store, indexer, REST, P2P) and
 * {@link #close()} stops them in the reverse order, each exactly once; a start that fails half-way
 * closes what it had started before it throws, so it leaves no port, thread or directory lock
 * behind. Thread-safe: {@link #close()} may be called from another thread (a shutdown hook) while
 * {@link BlockfilterServerBuilder#start()} runs; the start then stops at its next part and throws.
 */
public final class BlockfilterServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BlockfilterServer.class);

    private final BlockfilterServerBuilder settings;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private boolean startCalled; // guarded by this
    private boolean closed; // guarded by this

    /** Held by the one thread closing the parts, so a second close returns only after they are all closed. */
    private final Object closing = new Object();

    private LiveDemo demo;
    private BitcoinRpc rpc;
    private NodeChain node;
    private boolean pruned;
    private Path dataDir;
    private IndexStore store;
    private FilterIndexReader reader;
    private final NodeHealth health = new NodeHealth();
    private FilterIndexer indexer;
    private RestServer rest;
    private P2pServer p2p;
    private MeterRegistry registry;

    private BlockfilterServer(BlockfilterServerBuilder settings) {
        this.settings = settings;
    }

    /**
     * A builder with the defaults: no node yet (one of its {@code node} methods is required), a
     * temporary data directory, the indexer following the node, REST on a free loopback port, no P2P.
     */
    public static BlockfilterServerBuilder builder() {
        return new BlockfilterServerBuilder();
    }

    /** How the indexer runs; see {@link BlockfilterServerBuilder#indexing}. */
    public enum Indexing {
        /** A thread follows the node from the start; REST and P2P serve while it catches up. */
        FOLLOW,
        /** Index up to the node's tip before REST and P2P start, then follow. */
        CATCH_UP_THEN_FOLLOW,
        /**
         * Index up to the node's tip before REST and P2P start, then stay there: {@link
         * FilterIndexer#syncOnce()} indexes what the node mined since.
         */
        CATCH_UP
    }

    /** The server cannot start: the node cannot be reached or served, a port or directory cannot be used. */
    public static final class StartException extends RuntimeException {
        StartException(String message) {
            super(message);
        }
    }

    /** A server with checked settings of its own (a copy of the builder's), not started. */
    static BlockfilterServer create(BlockfilterServerBuilder settings) {
        return new BlockfilterServer(settings);
    }

    /**
     * Starts the server: connects to the node (starting the embedded demo if asked), opens the
     * store, starts the indexer (under {@link Indexing#CATCH_UP} and {@link
     * Indexing#CATCH_UP_THEN_FOLLOW} it first indexes to the node's tip), then REST, then P2P. If
     * a part fails, the parts started before it are closed before this throws. {@link #close()}
     * from another thread meanwhile stops the start at its next part.
     *
     * @return this server, running
     * @throws IllegalStateException if it was started or closed before
     * @throws StartException if a part cannot start
     * @throws StoreException if the data directory cannot be opened as an index
     * @throws RuntimeException what the indexer throws while catching up ({@link RpcException},
     *     {@code IndexingException}, {@code NodeAnswerException})
     */
    public BlockfilterServer start() {
        synchronized (this) {
            if (startCalled || closed) {
                throw new IllegalStateException(closed ? "the server is closed" : "the server was started already");
            }
            startCalled = true;
        }
        try {
            connectNode();
            openStore();
            if (settings.secondaryDir != null) {
                startCatchUp();
            } else {
                startIndexer();
            }
            registry = settings.restConfig != null ? startRest().meterRegistry() : new SimpleMeterRegistry();
            if (indexer != null) {
                registerIndexerMetrics(registry, indexer);
            }
            if (settings.p2pPort != null && !(settings.p2pOffOnMainnet && isMainnet())) {
                startP2p();
            }
        } catch (RuntimeException e) {
            try {
                close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return this;
    }

    private void connectNode() {
        JsonRpcClient client;
        if (settings.demo != null) {
            // The embedded node serves JSON-RPC with the JDK's HttpServer, which keeps Nagle's
            // algorithm on unless told otherwise: every response then waits ~40 ms for a delayed
            // ACK, and indexing the demo chain ran at ~10 instead of ~60 blocks/s (docs/benchmarks.md).
            if (System.getProperty("sun.net.httpserver.nodelay") == null) {
                System.setProperty("sun.net.httpserver.nodelay", "true");
            }
            LOG.info(
                    "event=embedded_node_starting demo_blocks={} seed={} block_interval_s={}",
                    settings.demo.blocks(),
                    settings.demo.seed(),
                    settings.demo.blockInterval().toSeconds());
            demo = opened(LiveDemo.start(settings.demo));
            client = opened(JsonRpcClient.create(
                    demo.node().rpcUri(), demo.node().rpcUser(), demo.node().rpcPassword(), settings.rpcTimeout));
        } else if (settings.rpc != null) {
            client = settings.rpc.client();
        } else {
            try {
                client = opened(
                        settings.rpcCookie != null
                                ? JsonRpcClient.fromCookieFile(settings.rpcUrl, settings.rpcCookie, settings.rpcTimeout)
                                : JsonRpcClient.fromUrl(settings.rpcUrl, settings.rpcTimeout));
            } catch (IOException e) {
                throw new StartException("cannot read the cookie file " + settings.rpcCookie + ": " + e);
            } catch (IllegalArgumentException e) {
                throw new StartException(e.getMessage());
            }
        }
        rpc = settings.rpc != null ? settings.rpc : new BitcoinRpc(client);
        try {
            node = NodeChain.of(rpc);
            // btcd omits "pruned"; a node that says anything but true serves every block.
            JsonNode prunedField = rpc.blockchainInfo().get("pruned");
            if (prunedField != null && !prunedField.isBoolean() && !prunedField.isNull()) {
                throw new StartException("getblockchaininfo: invalid answer from the node at " + client.endpoint()
                        + ": result.pruned must be a boolean, got " + prunedField.getNodeType());
            }
            pruned = prunedField != null && prunedField.asBoolean(false);
        } catch (RpcException e) {
            throw new StartException("cannot talk to the node at " + client.endpoint() + ": " + e.getMessage());
        } catch (NodeChain.WrongGenesisException e) {
            throw new StartException("cannot serve the node at " + client.endpoint() + ": " + e.getMessage());
        }
    }

    private void openStore() {
        dataDir = settings.dataDir != null ? settings.dataDir : temporaryDirectory("blockfilter-data-");
        if (settings.secondaryDir != null) {
            Path own = settings.secondaryDir.isEmpty()
                    ? temporaryDirectory("blockfilter-secondary-")
                    : settings.secondaryDir.get();
            store = opened(IndexStore.openSecondary(dataDir, own));
        } else {
            store = opened(IndexStore.open(dataDir, settings.undoDepth));
        }
        reader = new StoreFilterIndexReader(store);
        LOG.info(
                "event=start mode={} node={} chain={} data_dir={} indexed_height={}",
                store.isSecondary() ? "secondary" : "primary",
                rpc.client().endpoint(),
                node.name(),
                dataDir,
                reader.tip().height());
    }

    private void startIndexer() {
        indexer = opened(new FilterIndexer(
                store, new RpcBlockSource(rpc), settings.pollInterval, settings.ingest, settings.nodePrevouts, health));
        if (settings.indexing != Indexing.FOLLOW) {
            FilterIndexer.SyncResult result = indexer.syncOnce();
            LOG.info(
                    "event=synced height={} connected={} disconnected={}",
                    reader.tip().height(),
                    result.connected(),
                    result.disconnected());
        }
        if (settings.indexing != Indexing.CATCH_UP) {
            indexer.start();
        }
    }

    /** A secondary reads what the primary wrote every poll interval, on a thread of its own. */
    private void startCatchUp() {
        ScheduledExecutorService catchUp = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "secondary-catch-up");
            t.setDaemon(true);
            return t;
        });
        opened(catchUp::shutdownNow);
        long millis = settings.pollInterval.toMillis();
        catchUp.scheduleWithFixedDelay(
                () -> {
                    try {
                        Optional<ChainTip> before = store.tip();
                        Optional<ChainTip> after = store.catchUp();
                        if (!after.equals(before)) {
                            ChainTip tip = after.orElse(ChainTip.NONE);
                            LOG.info("event=secondary_tip height={} hash={}", tip.height(), tip.hash());
                        }
                    } catch (StoreException e) {
                        LOG.warn("event=catch_up_failed error=\"{}\"", e.getMessage());
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
    }

    private RestServer startRest() {
        String where = settings.restConfig.host() + ":" + settings.restConfig.port();
        try {
            rest = opened(RestServer.start(
                    settings.restConfig.withNetwork(node.name()),
                    reader,
                    new RpcNodeGateway(rpc, health),
                    Optional.ofNullable(demo).map(d -> new DemoFaucetAdapter(d.faucet()))));
            return rest;
        } catch (StartException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StartException("cannot serve HTTP on " + where + ": " + e.getMessage()
                    + " (choose another --port, or 0 for a free one)");
        }
    }

    private void startP2p() {
        if (node.chain().isEmpty()) {
            throw new StartException("cannot serve P2P: " + node.unknownBecause() + " (use --no-p2p)");
        }
        P2pConfig config = P2pConfig.forChain(node.chain().get())
                .withHost(settings.p2pHost)
                .withPort(settings.p2pPort);
        config = config.withSlots(config.slots().withLocal(settings.p2pWhitelist));
        if (pruned) {
            // A pruned node cannot give us old blocks: advertise NODE_NETWORK_LIMITED only.
            config = config.withServices(config.services() & ~P2pConfig.NODE_NETWORK);
        }
        if (!settings.p2pV2) {
            config = config.withServices(config.services() & ~P2pConfig.NODE_P2P_V2);
        }
        config = settings.p2pTweak.apply(config);
        try {
            p2p = opened(P2pServer.start(config, reader, new RpcNodeGateway(rpc, health), registry));
        } catch (IOException e) {
            throw new StartException("cannot serve P2P on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage() + " (choose another --p2p-port, 0 for a free one, or --no-p2p)");
        }
    }

    /** The indexer's own meters, beside the REST layer's index height and lag gauges. */
    private static void registerIndexerMetrics(MeterRegistry registry, FilterIndexer indexer) {
        FunctionCounter.builder(
                        "blockfilter_index_blocks_connected",
                        indexer,
                        i -> i.status().blocksConnected())
                .description("Blocks connected to the index since start")
                .register(registry);
        FunctionCounter.builder(
                        "blockfilter_index_blocks_disconnected",
                        indexer,
                        i -> i.status().blocksDisconnected())
                .description("Blocks disconnected in reorgs since start")
                .register(registry);
        FunctionCounter.builder(
                        "blockfilter_index_reorgs", indexer, i -> i.status().reorgs())
                .description("Reorgs followed since start")
                .register(registry);
    }

    private boolean isMainnet() {
        return node.chain().equals(Optional.of(Chain.MAINNET));
    }

    /** A temporary directory deleted when the server closes (after the store that uses it). */
    private Path temporaryDirectory(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            opened(() -> DirectoryTrees.delete(dir));
            return dir;
        } catch (IOException e) {
            throw new StartException("cannot create a temporary directory: " + e);
        }
    }

    /** Registers a started part to be closed first; closes it and throws if the server was closed meanwhile. */
    private <T extends AutoCloseable> T opened(T part) {
        synchronized (this) {
            if (!closed) {
                started.push(part);
                return part;
            }
        }
        try {
            part.close();
        } catch (Exception e) {
            LOG.warn("event=close_failed resource={} error=\"{}\"", part, e.toString());
        }
        throw new StartException("the server was closed while starting");
    }

    /**
     * Stops the server: P2P, REST, the indexer, the store, temporary directories, the embedded
     * node, in that order (the reverse of starting), each once. Idempotent; a part that fails to
     * close does not keep the others open. A close called while another is under way (a shutdown
     * hook beside the main thread) returns only when every part is closed.
     *
     * @throws IllegalStateException if a part failed to close (the first failure, the others suppressed)
     */
    @Override
    public void close() {
        synchronized (closing) {
            closeParts();
        }
    }

    private void closeParts() {
        RuntimeException failure = null;
        while (true) {
            AutoCloseable part;
            synchronized (this) {
                closed = true;
                part = started.poll();
            }
            if (part == null) {
                break;
            }
            try {
                part.close();
            } catch (Exception e) {
                LOG.warn("event=close_failed resource={} error=\"{}\"", part, e.toString());
                if (failure == null) {
                    failure = new IllegalStateException("cannot close " + part + ": " + e, e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The node's chain as the node names it, and which of ours it is if known. */
    public NodeChain node() {
        return node;
    }

    /** The node's JSON-RPC client, the one the indexer and the REST and P2P layers use. */
    public BitcoinRpc rpc() {
        return rpc;
    }

    /** The embedded demo (node, faucet, miner) when the server runs on it. */
    public Optional<LiveDemo> demo() {
        return Optional.ofNullable(demo);
    }

    /** The index directory (a temporary one, deleted at close, unless one was given). */
    public Path dataDir() {
        return dataDir;
    }

    /** The index store: the primary that the indexer writes, or a read-only secondary. */
    public IndexStore store() {
        return store;
    }

    /** What REST and P2P answer from. */
    public FilterIndexReader reader() {
        return reader;
    }

    /**
     * The indexer ({@link FilterIndexer#syncOnce()} indexes what the node has mined since, under
     * {@link Indexing#CATCH_UP}).
     *
     * @throws IllegalStateException on a read-only secondary, which has none
     */
    public FilterIndexer indexer() {
        if (indexer == null) {
            throw new IllegalStateException("a read-only secondary has no indexer");
        }
        return indexer;
    }

    /** The REST server, unless it was turned off. */
    public Optional<RestServer> rest() {
        return Optional.ofNullable(rest);
    }

    /**
     * The P2P listener, if one was asked for (and, with {@link
     * BlockfilterServerBuilder#p2pOffOnMainnet()}, the node is not on mainnet).
     */
    public Optional<P2pServer> p2p() {
        return Optional.ofNullable(p2p);
    }

    /** The P2P listener's address, if there is one. */
    public Optional<InetSocketAddress> p2pAddress() {
        return p2p().map(P2pServer::address);
    }

    /** Where the server's meters are: the REST server's registry (served at /metrics), else one of its own. */
    public MeterRegistry meterRegistry() {
        return registry;
    }

    /**
     * Writes (or brings up to date) the static, content-addressed export of this server's index
     * into {@code out} (see {@link StaticExport}).
     *
     * @param safetyDepth export only blocks this many below the tip
     * @param withBlocks also export the raw blocks, read from the node
     * @return what was written
     */
    public StaticExport.Result export(Path out, int safetyDepth, boolean withBlocks) {
        Objects.requireNonNull(out, "out");
        return StaticExport.export(store, out, safetyDepth, node.name(), withBlocks ? rpc::rawBlock : null);
    }

    /** The base URI of the REST server, e.g. {@code http://127.0.0.1:8157}. */
    public Optional<URI> restBaseUri() {
        return rest().map(RestServer::baseUri);
    }
}
