package org.blockfilter.server;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.embedded.LiveDemo;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.IndexingException;
import org.blockfilter.server.index.IngestSettings;
import org.blockfilter.server.index.NodeAnswerException;
import org.blockfilter.server.index.NodeHealth;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.index.StoreFilterIndexReader;
import org.blockfilter.server.node.NodeChain;
import org.blockfilter.server.node.RpcNodeGateway;
import org.blockfilter.server.p2p.NetRange;
import org.blockfilter.server.p2p.P2pConfig;
import org.blockfilter.server.p2p.P2pServer;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The block-filter server's command line: connects to a node (or starts the embedded regtest
 * node), indexes its chain and follows the tip, and serves the index over HTTP.
 * {@code --help} lists the options. Exit codes: 0 after {@code --exit-when-synced} or a
 * clean shutdown, 1 when the server cannot start (or {@code --exit-when-synced} cannot finish), 2
 * for bad options. Faults of the node or the store while running never stop the server.
 */
@Command(
        name = "blockfilter-server",
        mixinStandardHelpOptions = true,
        versionProvider = ServerVersion.class,
        sortOptions = false,
        subcommands = {ExportCommand.class, VerifyCommand.class, RepairCommand.class},
        description = "Follows a Bitcoin node, indexes a BIP 158 basic filter per block and serves filters "
                + "over REST and BIP 157 P2P.")
public final class ServerMain implements Callable<Integer> {
    /** Default HTTP port (BIP 157's number, rarely taken). */
    public static final int DEFAULT_PORT = 8157;
    /** Default P2P port off mainnet (next to the HTTP port; a node's own 8333/18444 stays free). */
    public static final int DEFAULT_P2P_PORT = 8158;

    private static final Logger LOG = LoggerFactory.getLogger(ServerMain.class);
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(30);
    /** Seconds between the demo's blocks unless --demo-block-interval says otherwise (the node run alone's too). */
    public static final int DEFAULT_DEMO_BLOCK_INTERVAL_SECONDS = LiveDemo.DEFAULT_BLOCK_INTERVAL_SECONDS;
    /** The embedded node's demo chains stop here (as EmbeddedNodeMain's --blocks): hours of signing beyond. */
    private static final int MAX_DEMO_BLOCKS = 100_000;

    @Option(
            names = "--node",
            paramLabel = "URL",
            description = "Node JSON-RPC URL: http://user:pass@host:port, or http://host:port with --rpc-cookie. "
                    + "Bitcoin Core, btcd or any node speaking Core's RPC.")
    URI node;

    @Option(names = "--rpc-cookie", paramLabel = "FILE", description = "Bitcoin Core cookie file for --node.")
    Path rpcCookie;

    @Option(
            names = "--embedded",
            description = "Start the embedded regtest node with a demo chain " + "(the default when --node is absent).")
    boolean embedded;

    @Option(
            names = "--demo-blocks",
            defaultValue = "300",
            description = "Blocks in the embedded demo chain (default: ${DEFAULT-VALUE}).")
    int demoBlocks;

    @Option(
            names = "--demo-seed",
            defaultValue = "1",
            description = "Seed of the embedded demo chain (default: ${DEFAULT-VALUE}).")
    long demoSeed;

    @Option(
            names = "--demo-block-interval",
            paramLabel = "SECONDS",
            defaultValue = "" + DEFAULT_DEMO_BLOCK_INTERVAL_SECONDS,
            description = "With the embedded node, mine a block every SECONDS, so the tip stays current "
                    + "(default: ${DEFAULT-VALUE}); 0: never (a fixed chain). The faucet and the node's "
                    + "generatetoaddress mine on demand.")
    int demoBlockInterval;

    @Option(
            names = "--demo-start",
            paramLabel = "TIME",
            description = "Time of the demo chain's first block, e.g. 2025-01-01T00:00:00Z; the same seed and "
                    + "start give the same chain (default: counted back from now, blocks 10 minutes apart, so the"
                    + " last block is now).")
    Instant demoStart;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Index directory (default: ./blockfilter-data "
                    + "with --node; a temporary directory, deleted at exit, with the embedded node).")
    Path dataDir;

    @Option(
            names = "--bind",
            defaultValue = "127.0.0.1",
            description = "HTTP bind address (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(
            names = "--port",
            defaultValue = "" + DEFAULT_PORT,
            description = "HTTP port, 0 for a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--immutable-depth",
            defaultValue = "6",
            description = "Confirmations after which responses "
                    + "about a block are served as Cache-Control: immutable (default: ${DEFAULT-VALUE}).")
    int immutableDepth;

    @Option(
            names = "--poll-ms",
            defaultValue = "200",
            description =
                    "How often to ask the node for a new tip once " + "caught up, in ms (default: ${DEFAULT-VALUE}).")
    long pollMillis;

    @Option(
            names = "--undo-depth",
            defaultValue = "" + IndexStore.DEFAULT_UNDO_DEPTH,
            description = "Blocks of undo data kept, the deepest reorg followed (default: ${DEFAULT-VALUE}).")
    int undoDepth;

    @Option(
            names = "--http-compression",
            paramLabel = "gzip|none",
            defaultValue = "none",
            description = "gzip: JSON and hex responses of 1 KiB or more are gzipped for clients that send "
                    + "Accept-Encoding: gzip (binary filters never are: they do not compress); none: never "
                    + "compress (default: ${DEFAULT-VALUE}: gzip costs 4-14x the server CPU of a JSON answer, "
                    + "and binary is smaller than gzipped JSON; docs/benchmarks.md).")
    String httpCompression;

    @Option(
            names = "--rpc-workers",
            defaultValue = "4",
            description = "Blocks fetched from the node in parallel while catching up (default: ${DEFAULT-VALUE}).")
    int rpcWorkers;

    @Option(
            names = "--prefetch-blocks",
            defaultValue = "32",
            description = "At most this many fetched blocks wait to be indexed (default: ${DEFAULT-VALUE}).")
    int prefetchBlocks;

    @Option(
            names = "--prefetch-mb",
            defaultValue = "64",
            description = "At most this many MiB of fetched raw blocks wait to be indexed, so the heap stays"
                    + " bounded (default: ${DEFAULT-VALUE}).")
    int prefetchMb;

    @Option(
            names = "--no-node-prevouts",
            description = "Never take prevout scripts from the node's getblock verbosity 3 (Bitcoin Core >= 23);"
                    + " always read them from the index's own unspent-output map.")
    boolean noNodePrevouts;

    @Option(names = "--no-http", description = "Index only; do not start the HTTP server.")
    boolean noHttp;

    @Option(
            names = "--p2p-port",
            paramLabel = "N",
            description = "Serve BIP 157 over the Bitcoin P2P protocol on this port, 0 for a free one " + "(default: "
                    + DEFAULT_P2P_PORT + " off mainnet; off on mainnet unless given).")
    Integer p2pPort;

    @Option(names = "--p2p-bind", paramLabel = "ADDR", description = "P2P bind address (default: the --bind address).")
    String p2pBind;

    @Option(names = "--no-p2p", description = "Do not start the P2P listener.")
    boolean noP2p;

    @Option(
            names = "--no-p2p-v2",
            description = "Speak only the v1 P2P transport: no BIP 324 encryption, NODE_P2P_V2 not advertised.")
    boolean noP2pV2;

    @Option(
            names = "--p2p-whitelist",
            paramLabel = "CIDR",
            split = ",",
            description = "P2P peers from these ranges (e.g. 10.0.0.0/8, fd00::/8; repeatable) count as local, like "
                    + "loopback: no per-address or per-netgroup limit, disconnected for misbehaviour but never banned. "
                    + "For a reverse proxy or a Tor onion service in front of the listener.")
    List<String> p2pWhitelist = new ArrayList<>();

    @Option(names = "--exit-when-synced", description = "Index up to the node's tip, then exit (implies --no-http).")
    boolean exitWhenSynced;

    @Option(
            names = "--read-only-secondary",
            description =
                    "Serve the index in --data-dir read-only beside the server that indexes it "
                            + "(a RocksDB secondary instance that catches up every --poll-ms); needs --node for blocks and relay.")
    boolean readOnlySecondary;

    @Option(
            names = "--secondary-dir",
            paramLabel = "DIR",
            description = "The secondary instance's own directory (RocksDB's info log; default: a temporary "
                    + "directory deleted at exit). One per secondary process.")
    Path secondaryDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Deque<AutoCloseable> closeOnExit = new ArrayDeque<>();
    /** The embedded demo, when there is no --node. */
    private LiveDemo demo;

    private final CountDownLatch stopped = new CountDownLatch(1);

    public static void main(String[] args) {
        ServerMain main = new ServerMain();
        Runtime.getRuntime().addShutdownHook(new Thread(main::shutdown, "shutdown"));
        System.exit(new CommandLine(main).execute(args));
    }

    /** Runs the command line and returns the exit code (for tests and launchers). */
    public static int run(String... args) {
        return new CommandLine(new ServerMain()).execute(args);
    }

    /** The same with the usage and error text going to the given writers. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        return new CommandLine(new ServerMain()).setOut(out).setErr(err).execute(args);
    }

    @Override
    public Integer call() {
        if (validate() != 0) {
            return 2;
        }
        try {
            return serve();
        } catch (StartupException | StoreException | IndexingException | NodeAnswerException | RpcException e) {
            LOG.error("event=startup_failed error=\"{}\"", e.getMessage());
            System.err.println("blockfilter-server: " + e.getMessage());
            return 1;
        } finally {
            shutdown();
        }
    }

    private int validate() {
        // The executing command line's writer (run(out, err, ...) redirects it), not a new one's.
        PrintWriter err = spec.commandLine().getErr();
        String problem = null;
        if (node != null && embedded) {
            problem = "--node and --embedded exclude each other";
        } else if (rpcCookie != null && node == null) {
            problem = "--rpc-cookie needs --node";
        } else if (port < 0 || port > 65_535) {
            problem = "--port must be 0..65535: " + port;
        } else if (immutableDepth < 0) {
            problem = "--immutable-depth must be >= 0: " + immutableDepth;
        } else if (pollMillis < 1) {
            problem = "--poll-ms must be >= 1: " + pollMillis;
        } else if (undoDepth < 1) {
            problem = "--undo-depth must be >= 1: " + undoDepth;
        } else if (rpcWorkers < 1 || rpcWorkers > 64) {
            problem = "--rpc-workers must be 1..64: " + rpcWorkers;
        } else if (prefetchBlocks < 1) {
            problem = "--prefetch-blocks must be >= 1: " + prefetchBlocks;
        } else if (prefetchMb < 1 || prefetchMb > 1 << 20) {
            problem = "--prefetch-mb must be 1..1048576: " + prefetchMb;
        } else if (p2pPort != null && (p2pPort < 0 || p2pPort > 65_535)) {
            problem = "--p2p-port must be 0..65535: " + p2pPort;
        } else if (p2pPort != null && noP2p) {
            problem = "--p2p-port and --no-p2p exclude each other";
        } else if (whitelistProblem() != null) {
            problem = whitelistProblem();
        } else if (readOnlySecondary && (node == null || dataDir == null)) {
            problem = "--read-only-secondary needs --node and --data-dir (the primary's index directory)";
        } else if (readOnlySecondary && (exitWhenSynced || noHttp)) {
            problem = "--read-only-secondary only serves: it excludes --exit-when-synced and --no-http";
        } else if (secondaryDir != null && !readOnlySecondary) {
            problem = "--secondary-dir needs --read-only-secondary";
        } else if (!isCompression(httpCompression)) {
            problem = "--http-compression must be gzip or none: " + httpCompression;
        } else if (demoBlocks < 1 || demoBlocks > MAX_DEMO_BLOCKS) {
            problem = "--demo-blocks must be 1.." + MAX_DEMO_BLOCKS + ": " + demoBlocks;
        } else if (demoBlockInterval < 0 || demoBlockInterval > LiveDemo.MAX_BLOCK_INTERVAL_SECONDS) {
            problem = "--demo-block-interval must be 0.." + LiveDemo.MAX_BLOCK_INTERVAL_SECONDS + " seconds: "
                    + demoBlockInterval;
        }
        if (problem != null) {
            err.println("blockfilter-server: " + problem + " (see --help)");
            err.flush();
            return 2;
        }
        return 0;
    }

    private static boolean isCompression(String value) {
        try {
            RestConfig.Compression.parse(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private int serve() throws StartupException {
        JsonRpcClient client = connect();
        BitcoinRpc rpc = new BitcoinRpc(client);
        NodeChain node;
        boolean pruned;
        try {
            node = NodeChain.of(rpc);
            // btcd omits "pruned"; a node that says anything but true serves every block.
            com.fasterxml.jackson.databind.JsonNode prunedField =
                    rpc.blockchainInfo().get("pruned");
            if (prunedField != null && !prunedField.isBoolean() && !prunedField.isNull()) {
                throw new StartupException("getblockchaininfo: invalid answer from the node at " + client.endpoint()
                        + ": result.pruned must be a boolean, got " + prunedField.getNodeType());
            }
            pruned = prunedField != null && prunedField.asBoolean(false);
        } catch (RpcException e) {
            throw new StartupException("cannot talk to the node at " + client.endpoint() + ": " + e.getMessage());
        } catch (NodeChain.WrongGenesisException e) {
            throw new StartupException("cannot serve the node at " + client.endpoint() + ": " + e.getMessage());
        }
        String chain = node.name();
        Path dir = dataDir();
        if (readOnlySecondary) {
            return serveSecondary(client, node, pruned, rpc, dir);
        }
        IndexStore store = IndexStore.open(dir, undoDepth);
        closeFirst(store);
        NodeHealth health = new NodeHealth();
        FilterIndexer indexer = new FilterIndexer(
                store,
                new RpcBlockSource(rpc),
                Duration.ofMillis(pollMillis),
                new IngestSettings(rpcWorkers, prefetchBlocks, (long) prefetchMb << 20),
                !noNodePrevouts,
                health);
        closeFirst(indexer);
        LOG.info(
                "event=start node={} chain={} data_dir={} indexed_height={}",
                client.endpoint(),
                chain,
                dir,
                store.tip().map(IndexStore.ChainTip::height).orElse(-1));

        if (exitWhenSynced) {
            FilterIndexer.SyncResult result = indexer.syncOnce();
            LOG.info(
                    "event=synced height={} connected={} disconnected={}",
                    store.tip().map(IndexStore.ChainTip::height).orElse(-1),
                    result.connected(),
                    result.disconnected());
            return 0;
        }
        indexer.start();
        MeterRegistry registry;
        if (noHttp) {
            registry = new SimpleMeterRegistry();
            System.out.println("blockfilter-server: indexing " + client.endpoint() + " (" + chain + ") into " + dir
                    + "; HTTP disabled (--no-http).");
        } else {
            RestServer rest = startRest(chain, store, rpc, health);
            closeFirst(rest); // closed before the indexer and the store
            registry = rest.meterRegistry();
            registerIndexerMetrics(registry, indexer);
            String base = rest.baseUri().toString();
            System.out.println("blockfilter-server: indexing " + client.endpoint() + " (" + chain + ") into " + dir);
            if (demo != null) {
                EmbeddedNode n = demo.node();
                System.out.println(
                        "  node RPC        http://" + urlEncode(n.rpcUser()) + ":" + urlEncode(n.rpcPassword())
                                + "@" + n.rpcUri().getHost() + ":" + n.rpcUri().getPort()
                                + "  (the embedded node: Bitcoin Core's JSON-RPC)");
                System.out.println("  faucet          curl -d '{\"address\": \"bcrt1q...\", \"amount\": \"1.5\"}' "
                        + base + "/api/v1/demo/faucet");
                System.out.println("  new blocks      "
                        + (demoBlockInterval == 0
                                ? "none (--demo-block-interval 0)"
                                : "every " + demoBlockInterval + " s (--demo-block-interval)"));
            }
            System.out.println("  status          " + base + "/api/v1/status");
            System.out.println("  a filter        " + base + "/api/v1/filters/0  (by height or block hash)");
            System.out.println("  Core-compatible " + base + "/rest/blockfilter/basic/<blockhash>.json");
            System.out.println("  API docs        " + base + "/swagger  (OpenAPI: " + base + "/api/v1/openapi.json)");
            System.out.println("  metrics         " + base + "/metrics");
        }
        Integer p2p = p2pPortFor(node);
        if (p2p != null) {
            P2pServer server = startP2p(node, pruned, p2p, store, new RpcNodeGateway(rpc, health), registry);
            closeFirst(server); // closed before the indexer and the store
            printP2p(server);
        }
        System.out.println("Ctrl-C to stop.");
        System.out.flush();
        awaitStop();
        return 0;
    }

    /** Serves the primary's index read-only, catching up every --poll-ms, until stopped. */
    private int serveSecondary(JsonRpcClient client, NodeChain node, boolean pruned, BitcoinRpc rpc, Path dir)
            throws StartupException {
        String chain = node.name();
        Path own = secondaryDir;
        if (own == null) {
            try {
                Path temp = Files.createTempDirectory("blockfilter-secondary-");
                closeLast(() -> deleteTree(temp));
                own = temp;
            } catch (IOException e) {
                throw new StartupException("cannot create a temporary secondary directory: " + e);
            }
        }
        IndexStore store = IndexStore.openSecondary(dir, own);
        closeFirst(store);
        java.util.concurrent.ScheduledExecutorService catchUp =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "secondary-catch-up");
                    t.setDaemon(true);
                    return t;
                });
        closeFirst(catchUp::shutdownNow);
        catchUp.scheduleWithFixedDelay(
                () -> {
                    try {
                        Optional<IndexStore.ChainTip> before = store.tip();
                        Optional<IndexStore.ChainTip> after = store.catchUp();
                        if (!after.equals(before)) {
                            LOG.info(
                                    "event=secondary_tip height={} hash={}",
                                    after.map(IndexStore.ChainTip::height).orElse(-1),
                                    after.map(t -> t.hash().toString()).orElse("-"));
                        }
                    } catch (StoreException e) {
                        LOG.warn("event=catch_up_failed error=\"{}\"", e.getMessage());
                    }
                },
                pollMillis,
                pollMillis,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        NodeHealth health = new NodeHealth();
        RestServer rest = startRest(chain, store, rpc, health);
        closeFirst(rest);
        LOG.info(
                "event=start mode=secondary node={} chain={} data_dir={} indexed_height={}",
                client.endpoint(),
                chain,
                dir,
                store.tip().map(IndexStore.ChainTip::height).orElse(-1));
        System.out.println("blockfilter-server: serving the index in " + dir + " read-only (secondary)");
        System.out.println("  status          " + rest.baseUri() + "/api/v1/status");
        // The default P2P port is the primary's; a secondary listens only where it is told to.
        if (p2pPort != null && !noP2p) {
            P2pServer server =
                    startP2p(node, pruned, p2pPort, store, new RpcNodeGateway(rpc, health), rest.meterRegistry());
            closeFirst(server);
            printP2p(server);
        }
        System.out.println("Ctrl-C to stop.");
        System.out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void printP2p(P2pServer server) {
        System.out.println("  BIP 157 P2P     " + server.address().getAddress().getHostAddress() + ":" + server.port()
                + "  (e.g. wallet sync --peer, BDK's CbfBuilder().peers)");
    }

    private String whitelistProblem() {
        try {
            whitelist();
            return null;
        } catch (IllegalArgumentException e) {
            return "--p2p-whitelist: " + e.getMessage();
        }
    }

    private List<NetRange> whitelist() {
        return NetRange.parseAll(p2pWhitelist.stream().map(String::trim).toArray(String[]::new));
    }

    /** The P2P port to listen on, or null for none: on by default off mainnet, off on mainnet unless asked. */
    private Integer p2pPortFor(NodeChain node) {
        if (noP2p) {
            return null;
        }
        if (p2pPort != null) {
            return p2pPort;
        }
        return node.chain().equals(Optional.of(Chain.MAINNET)) ? null : DEFAULT_P2P_PORT;
    }

    private P2pServer startP2p(
            NodeChain node, boolean pruned, int p2p, IndexStore store, RpcNodeGateway gateway, MeterRegistry registry)
            throws StartupException {
        String host = p2pBind != null ? p2pBind : bind;
        if (node.chain().isEmpty()) {
            throw new StartupException("cannot serve P2P: " + node.unknownBecause() + " (use --no-p2p)");
        }
        P2pConfig config = P2pConfig.forChain(node.chain().get()).withHost(host).withPort(p2p);
        config = config.withSlots(config.slots().withLocal(whitelist()));
        if (pruned) {
            // A pruned node cannot give us old blocks: advertise NODE_NETWORK_LIMITED only.
            config = config.withServices(config.services() & ~P2pConfig.NODE_NETWORK);
        }
        if (noP2pV2) {
            config = config.withServices(config.services() & ~P2pConfig.NODE_P2P_V2);
        }
        try {
            return P2pServer.start(config, new StoreFilterIndexReader(store), gateway, registry);
        } catch (IOException e) {
            throw new StartupException("cannot serve P2P on " + host + ":" + p2p + ": " + e.getMessage()
                    + " (choose another --p2p-port, 0 for a free one, or --no-p2p)");
        }
    }

    private RestServer startRest(String chain, IndexStore store, BitcoinRpc rpc, NodeHealth health)
            throws StartupException {
        RestConfig config = RestConfig.defaults()
                .withHost(bind)
                .withPort(port)
                .withNetwork(chain)
                .withBuriedDepth(immutableDepth)
                .withCompression(RestConfig.Compression.parse(httpCompression));
        try {
            return RestServer.start(
                    config,
                    new StoreFilterIndexReader(store),
                    new RpcNodeGateway(rpc, health),
                    Optional.ofNullable(demo).map(d -> new DemoFaucetAdapter(d.faucet())));
        } catch (RuntimeException e) {
            throw new StartupException("cannot serve HTTP on " + bind + ":" + port + ": " + e.getMessage()
                    + " (choose another --port, or 0 for a free one)");
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

    private void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private JsonRpcClient connect() throws StartupException {
        if (node != null) {
            try {
                return rpcCookie != null
                        ? JsonRpcClient.fromCookieFile(node, rpcCookie, RPC_TIMEOUT)
                        : JsonRpcClient.fromUrl(node, RPC_TIMEOUT);
            } catch (IOException e) {
                throw new StartupException("cannot read the cookie file " + rpcCookie + ": " + e);
            } catch (IllegalArgumentException e) {
                throw new StartupException(e.getMessage());
            }
        }
        // The embedded node serves JSON-RPC with the JDK's HttpServer, which keeps Nagle's algorithm
        // on unless told otherwise: every response then waits ~40 ms for a delayed ACK, and indexing
        // the demo chain ran at ~10 instead of ~60 blocks/s (docs/benchmarks.md).
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        LOG.info(
                "event=embedded_node_starting demo_blocks={} seed={} block_interval_s={}",
                demoBlocks,
                demoSeed,
                demoBlockInterval);
        LiveDemo started = LiveDemo.start(new LiveDemo.Options(
                demoBlocks, demoSeed, Optional.ofNullable(demoStart), Duration.ofSeconds(demoBlockInterval)));
        closeLast(started); // closed after the indexer and store
        demo = started;
        EmbeddedNode demoNode = started.node();
        return JsonRpcClient.create(demoNode.rpcUri(), demoNode.rpcUser(), demoNode.rpcPassword(), RPC_TIMEOUT);
    }

    private Path dataDir() throws StartupException {
        if (dataDir != null) {
            return dataDir;
        }
        if (node != null) {
            return Path.of("blockfilter-data");
        }
        try {
            Path temp = Files.createTempDirectory("blockfilter-embedded-");
            closeLast(() -> deleteTree(temp));
            return temp;
        } catch (IOException e) {
            throw new StartupException("cannot create a temporary data directory: " + e);
        }
    }

    // The shutdown hook may run while start-up is still registering resources.
    private synchronized void closeFirst(AutoCloseable c) {
        closeOnExit.push(c);
    }

    private synchronized void closeLast(AutoCloseable c) {
        closeOnExit.addLast(c);
    }

    private synchronized void shutdown() {
        stopped.countDown();
        while (!closeOnExit.isEmpty()) {
            AutoCloseable c = closeOnExit.pop();
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("event=close_failed resource={} error=\"{}\"", c, e.toString());
            }
        }
    }

    private static String urlEncode(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The server cannot start; the message says why and what to do. */
    static final class StartupException extends Exception {
        StartupException(String message) {
            super(message);
        }
    }
}
