package org.blockfilter.server;

import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.embedded.LiveDemo;
import org.blockfilter.server.index.IndexingException;
import org.blockfilter.server.index.NodeAnswerException;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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
    /** Seconds between the demo's blocks unless --demo-block-interval says otherwise (the node run alone's too). */
    public static final int DEFAULT_DEMO_BLOCK_INTERVAL_SECONDS = LiveDemo.DEFAULT_BLOCK_INTERVAL_SECONDS;

    @CommandLine.Mixin
    ServerOptions options = new ServerOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The server, once built; closed by the shutdown hook or when call() returns. */
    private volatile BlockfilterServer server;

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
        } catch (BlockfilterServer.StartException
                | StoreException
                | IndexingException
                | NodeAnswerException
                | RpcException e) {
            LOG.error("event=startup_failed error=\"{}\"", e.getMessage());
            System.err.println("blockfilter-server: " + e.getMessage());
            return 1;
        } finally {
            shutdown();
        }
    }

    private int validate() {
        String problem = options.problem();
        if (problem != null) {
            // The executing command line's writer (run(out, err, ...) redirects it), not a new one's.
            PrintWriter err = spec.commandLine().getErr();
            err.println("blockfilter-server: " + problem + " (see --help)");
            err.flush();
            return 2;
        }
        return 0;
    }

    private int serve() {
        BlockfilterServer built = options.builder().build();
        server = built;
        if (stopped.getCount() == 0) {
            return 0; // stopped before it started
        }
        try {
            built.start();
        } catch (RuntimeException e) {
            if (stopped.getCount() == 0) {
                return 0; // Ctrl-C while starting: the shutdown hook closed it
            }
            throw e;
        }
        if (options.exitWhenSynced) {
            return 0;
        }
        printBanner(built);
        awaitStop();
        return 0;
    }

    private void printBanner(BlockfilterServer s) {
        String endpoint = s.rpc().client().endpoint() + " (" + s.node().name() + ")";
        if (s.store().isSecondary()) {
            System.out.println("blockfilter-server: serving the index in " + s.dataDir() + " read-only (secondary)");
            System.out.println("  status          " + s.restBaseUri().orElseThrow() + "/api/v1/status");
        } else if (s.rest().isEmpty()) {
            System.out.println("blockfilter-server: indexing " + endpoint + " into " + s.dataDir()
                    + "; HTTP disabled (--no-http).");
        } else {
            String base = s.restBaseUri().orElseThrow().toString();
            System.out.println("blockfilter-server: indexing " + endpoint + " into " + s.dataDir());
            if (s.demo().isPresent()) {
                EmbeddedNode n = s.demo().get().node();
                System.out.println(
                        "  node RPC        http://" + urlEncode(n.rpcUser()) + ":" + urlEncode(n.rpcPassword())
                                + "@" + n.rpcUri().getHost() + ":" + n.rpcUri().getPort()
                                + "  (the embedded node: Bitcoin Core's JSON-RPC)");
                System.out.println("  faucet          curl -d '{\"address\": \"bcrt1q...\", \"amount\": \"1.5\"}' "
                        + base + "/api/v1/demo/faucet");
                System.out.println("  new blocks      "
                        + (options.demoBlockInterval == 0
                                ? "none (--demo-block-interval 0)"
                                : "every " + options.demoBlockInterval + " s (--demo-block-interval)"));
            }
            System.out.println("  status          " + base + "/api/v1/status");
            System.out.println("  a filter        " + base + "/api/v1/filters/0  (by height or block hash)");
            System.out.println("  Core-compatible " + base + "/rest/blockfilter/basic/<blockhash>.json");
            System.out.println("  API docs        " + base + "/swagger  (OpenAPI: " + base + "/api/v1/openapi.json)");
            System.out.println("  metrics         " + base + "/metrics");
        }
        s.p2pAddress()
                .ifPresent(a ->
                        System.out.println("  BIP 157 P2P     " + a.getAddress().getHostAddress() + ":" + a.getPort()
                                + "  (e.g. wallet sync --peer, BDK's CbfBuilder().peers)"));
        System.out.println("Ctrl-C to stop.");
        System.out.flush();
    }

    private void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void shutdown() {
        stopped.countDown();
        BlockfilterServer s = server;
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.warn("event=close_failed error=\"{}\"", e.toString());
            }
        }
    }

    private static String urlEncode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
