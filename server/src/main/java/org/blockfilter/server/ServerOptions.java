package org.blockfilter.server;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.blockfilter.regtest.embedded.LiveDemo;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.index.IngestSettings;
import org.blockfilter.server.p2p.NetRange;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The server command line's options ({@link ServerMain} mixes them in), their checks, and the
 * {@link BlockfilterServer} they describe.
 */
final class ServerOptions {
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
            defaultValue = "" + ServerMain.DEFAULT_DEMO_BLOCK_INTERVAL_SECONDS,
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
            defaultValue = "" + ServerMain.DEFAULT_PORT,
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

    @CommandLine.Mixin
    UndoDepthOption undo = new UndoDepthOption();

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
                    + ServerMain.DEFAULT_P2P_PORT + " off mainnet; off on mainnet unless given).")
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

    /** What is wrong with the options, or null if nothing is. */
    String problem() {
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
        } else if (undo.undoDepth < 1) {
            problem = "--undo-depth must be >= 1: " + undo.undoDepth;
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
        return problem;
    }

    private static boolean isCompression(String value) {
        try {
            RestConfig.Compression.parse(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
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

    /** The server these options describe: on {@code --node}, or on the embedded demo without it. */
    BlockfilterServerBuilder builder() {
        BlockfilterServerBuilder builder = BlockfilterServer.builder()
                .rpcTimeout(BlockfilterServerBuilder.DEFAULT_RPC_TIMEOUT)
                .undoDepth(undo.undoDepth)
                .pollInterval(Duration.ofMillis(pollMillis))
                .ingest(new IngestSettings(rpcWorkers, prefetchBlocks, (long) prefetchMb << 20))
                .nodePrevouts(!noNodePrevouts)
                .p2pV2(!noP2pV2)
                .p2pWhitelist(whitelist());
        if (node != null) {
            builder.node(node, rpcCookie).dataDir(dataDir != null ? dataDir : Path.of("blockfilter-data"));
        } else {
            builder.embeddedDemo(new LiveDemo.Options(
                    demoBlocks, demoSeed, Optional.ofNullable(demoStart), Duration.ofSeconds(demoBlockInterval)));
            if (dataDir != null) {
                builder.dataDir(dataDir);
            }
        }
        if (readOnlySecondary) {
            builder.readOnlySecondary(secondaryDir);
        }
        if (exitWhenSynced) {
            builder.indexing(BlockfilterServer.Indexing.CATCH_UP);
        }
        if (noHttp || exitWhenSynced) {
            builder.noRest();
        } else {
            builder.rest(RestConfig.defaults()
                    .withHost(bind)
                    .withPort(port)
                    .withBuriedDepth(immutableDepth)
                    .withCompression(RestConfig.Compression.parse(httpCompression)));
        }
        String p2pHost = p2pBind != null ? p2pBind : bind;
        if (noP2p || exitWhenSynced) {
            return builder;
        } else if (p2pPort != null) {
            builder.p2p(p2pHost, p2pPort);
        } else if (!readOnlySecondary) {
            // The default P2P port is the primary's; a secondary listens only where it is told to.
            builder.p2p(p2pHost, ServerMain.DEFAULT_P2P_PORT).p2pOffOnMainnet();
        }
        return builder;
    }
}
