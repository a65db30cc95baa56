package org.blockfilter.server;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.blockfilter.regtest.embedded.LiveDemo;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.index.IngestSettings;
import org.blockfilter.server.p2p.NetRange;
import org.blockfilter.server.p2p.P2pConfig;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.store.IndexStore;

/**
 * The settings of a {@link BlockfilterServer}, from {@link BlockfilterServer#builder()}; {@link
 * #start()} starts a server with them. Exactly one node is required ({@link #node(URI)}, {@link
 * #node(URI, Path)}, {@link #node(BitcoinRpc)} or {@link #embeddedDemo}); everything else has a
 * default: a temporary data directory deleted at close, the indexer following the node, REST on a
 * free loopback port ({@link RestConfig#defaults()}), no P2P listener. Setters check their
 * argument and return this builder. Not thread-safe; a started server keeps its own copy.
 */
public final class BlockfilterServerBuilder {
    /** JSON-RPC timeout unless {@link #rpcTimeout} says otherwise. */
    public static final Duration DEFAULT_RPC_TIMEOUT = Duration.ofSeconds(30);
    /** How often the indexer asks the node for a new tip once caught up, unless {@link #pollInterval} says. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(200);

    URI rpcUrl;
    Path rpcCookie;
    BitcoinRpc rpc;
    LiveDemo.Options demo;
    Duration rpcTimeout = DEFAULT_RPC_TIMEOUT;
    Path dataDir;
    int undoDepth = IndexStore.DEFAULT_UNDO_DEPTH;
    /** Null: the primary; empty: a secondary in a temporary directory of its own. */
    Optional<Path> secondaryDir;

    Duration pollInterval = DEFAULT_POLL_INTERVAL;
    IngestSettings ingest = IngestSettings.DEFAULT;
    boolean nodePrevouts = true;
    BlockfilterServer.Indexing indexing = BlockfilterServer.Indexing.FOLLOW;
    RestConfig restConfig = RestConfig.defaults();
    String p2pHost;
    Integer p2pPort;
    boolean p2pOffOnMainnet;
    boolean p2pV2 = true;
    List<NetRange> p2pWhitelist = List.of();
    UnaryOperator<P2pConfig> p2pTweak = UnaryOperator.identity();

    BlockfilterServerBuilder() {}

    private BlockfilterServerBuilder copy() {
        BlockfilterServerBuilder c = new BlockfilterServerBuilder();
        c.rpcUrl = rpcUrl;
        c.rpcCookie = rpcCookie;
        c.rpc = rpc;
        c.demo = demo;
        c.rpcTimeout = rpcTimeout;
        c.dataDir = dataDir;
        c.undoDepth = undoDepth;
        c.secondaryDir = secondaryDir;
        c.pollInterval = pollInterval;
        c.ingest = ingest;
        c.nodePrevouts = nodePrevouts;
        c.indexing = indexing;
        c.restConfig = restConfig;
        c.p2pHost = p2pHost;
        c.p2pPort = p2pPort;
        c.p2pOffOnMainnet = p2pOffOnMainnet;
        c.p2pV2 = p2pV2;
        c.p2pWhitelist = p2pWhitelist;
        c.p2pTweak = p2pTweak;
        return c;
    }

    /**
     * The node at a JSON-RPC URL with its credentials in it, {@code http://user:pass@host:port}
     * (Bitcoin Core, btcd or any node speaking Core's RPC).
     */
    public BlockfilterServerBuilder node(URI rpcUrl) {
        return node(rpcUrl, null);
    }

    /**
     * The node at {@code rpcUrl} ({@code http://host:port}), authenticated with Bitcoin Core's
     * cookie file, read at start.
     *
     * @param cookieFile the cookie file, or null for credentials in the URL
     */
    public BlockfilterServerBuilder node(URI rpcUrl, Path cookieFile) {
        clearNode();
        this.rpcUrl = Objects.requireNonNull(rpcUrl, "rpcUrl");
        this.rpcCookie = cookieFile;
        return this;
    }

    /**
     * The node behind an RPC client made by the caller (its own timeout, a proxy in between), who
     * closes it after the server; clients the server makes itself it closes.
     */
    public BlockfilterServerBuilder node(BitcoinRpc rpc) {
        clearNode();
        this.rpc = Objects.requireNonNull(rpc, "rpc");
        return this;
    }

    /**
     * The embedded regtest node with a live demo chain (a block every {@code blockInterval}, a
     * faucet at {@code POST /api/v1/demo/faucet}), started with the server and stopped after it.
     */
    public BlockfilterServerBuilder embeddedDemo(LiveDemo.Options options) {
        clearNode();
        this.demo = Objects.requireNonNull(options, "options");
        return this;
    }

    private void clearNode() {
        rpcUrl = null;
        rpcCookie = null;
        rpc = null;
        demo = null;
    }

    /** Timeout of each JSON-RPC call (default {@link #DEFAULT_RPC_TIMEOUT}); not for {@link #node(BitcoinRpc)}. */
    public BlockfilterServerBuilder rpcTimeout(Duration timeout) {
        this.rpcTimeout = positive(timeout, "rpcTimeout");
        return this;
    }

    /** The index directory, created if missing (default: a temporary one, deleted at close). */
    public BlockfilterServerBuilder dataDir(Path dir) {
        this.dataDir = Objects.requireNonNull(dir, "dir");
        return this;
    }

    /** Blocks of undo data kept, the deepest reorg followed (default {@link IndexStore#DEFAULT_UNDO_DEPTH}). */
    public BlockfilterServerBuilder undoDepth(int blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("undoDepth must be >= 1: " + blocks);
        }
        this.undoDepth = blocks;
        return this;
    }

    /**
     * Serve the index in {@link #dataDir} read-only beside the server that indexes it: a RocksDB
     * secondary instance that catches up every {@link #pollInterval}, with no indexer.
     *
     * @param ownDir the secondary's own directory (RocksDB's info log), or null for a temporary one
     */
    public BlockfilterServerBuilder readOnlySecondary(Path ownDir) {
        this.secondaryDir = Optional.ofNullable(ownDir);
        return this;
    }

    /** How often to ask the node for a new tip once caught up (a secondary: to catch up with the primary). */
    public BlockfilterServerBuilder pollInterval(Duration interval) {
        this.pollInterval = positive(interval, "pollInterval");
        return this;
    }

    /** How far the indexer reads ahead while catching up (default {@link IngestSettings#DEFAULT}). */
    public BlockfilterServerBuilder ingest(IngestSettings settings) {
        this.ingest = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /**
     * Whether to take prevout scripts from the node's {@code getblock} verbosity 3 when it offers
     * them (default true); false always reads them from the index's unspent-output map.
     */
    public BlockfilterServerBuilder nodePrevouts(boolean use) {
        this.nodePrevouts = use;
        return this;
    }

    /** How the indexer runs (default {@link BlockfilterServer.Indexing#FOLLOW}). */
    public BlockfilterServerBuilder indexing(BlockfilterServer.Indexing mode) {
        this.indexing = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** REST with this configuration (host, port, compression...); its network is set to the node's. */
    public BlockfilterServerBuilder rest(RestConfig config) {
        this.restConfig = Objects.requireNonNull(config, "config");
        return this;
    }

    /** No REST server: index only (and P2P, if asked). */
    public BlockfilterServerBuilder noRest() {
        this.restConfig = null;
        return this;
    }

    /**
     * A BIP 157 P2P listener on {@code host:port} (0 for a free port), configured for the node's
     * chain; a pruned node's listener advertises NODE_NETWORK_LIMITED only.
     */
    public BlockfilterServerBuilder p2p(String host, int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("P2P port must be 0..65535: " + port);
        }
        this.p2pHost = Objects.requireNonNull(host, "host");
        this.p2pPort = port;
        return this;
    }

    /** No P2P listener when the node is on mainnet (a listener asked for by default, not by the user). */
    public BlockfilterServerBuilder p2pOffOnMainnet() {
        this.p2pOffOnMainnet = true;
        return this;
    }

    /** Whether the P2P listener speaks BIP 324 v2 and advertises NODE_P2P_V2 (default true). */
    public BlockfilterServerBuilder p2pV2(boolean on) {
        this.p2pV2 = on;
        return this;
    }

    /**
     * P2P peers from these ranges count as local, like loopback: no per-address or per-netgroup
     * limit, disconnected for misbehaviour but never banned (a reverse proxy or Tor in front).
     */
    public BlockfilterServerBuilder p2pWhitelist(List<NetRange> ranges) {
        this.p2pWhitelist = List.copyOf(ranges);
        return this;
    }

    /** A change to the P2P configuration after the settings above (timeouts, limits, tip polling...). */
    public BlockfilterServerBuilder p2pConfig(UnaryOperator<P2pConfig> tweak) {
        this.p2pTweak = Objects.requireNonNull(tweak, "tweak");
        return this;
    }

    /**
     * A server with these settings, not started yet: {@link BlockfilterServer#start()} starts it
     * (a caller that may close it from another thread, a shutdown hook, holds it first).
     *
     * @throws IllegalStateException if no node was given, or the settings exclude each other
     */
    public BlockfilterServer build() {
        BlockfilterServerBuilder settings = copy();
        settings.validate();
        return BlockfilterServer.create(settings);
    }

    /**
     * {@link #build()}, then {@link BlockfilterServer#start()}.
     *
     * @throws IllegalStateException if no node was given, or the settings exclude each other
     * @throws BlockfilterServer.StartException if a part cannot start (what started before is closed)
     * @throws org.blockfilter.server.store.StoreException if the data directory cannot be opened as an index
     */
    public BlockfilterServer start() {
        return build().start();
    }

    private void validate() {
        if (rpcUrl == null && rpc == null && demo == null) {
            throw new IllegalStateException("no node: call node(...) or embeddedDemo(...)");
        }
        if (secondaryDir != null && (dataDir == null || demo != null)) {
            throw new IllegalStateException(
                    "a read-only secondary needs the primary's dataDir and a node that is not the embedded demo");
        }
        if (secondaryDir != null && restConfig == null) {
            throw new IllegalStateException("a read-only secondary only serves: it needs REST");
        }
    }

    private static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
        return d;
    }
}
