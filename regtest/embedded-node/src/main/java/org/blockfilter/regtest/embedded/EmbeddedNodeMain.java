package org.blockfilter.regtest.embedded;

import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Runs the embedded node alone with its JSON-RPC port, so tools and our server can point at it:
 * {@code EmbeddedNodeMain [--blocks N | --scenario standard] [--seed S] [--block-interval SECONDS]
 * [--start TIME] [--rpcport P] [--rpcuser U] [--rpcpassword W]}. It is the server's demo node
 * ({@link LiveDemo}): a deterministic demo chain of N blocks (default 200), or the 300-block
 * standard scenario, whose block times end now; then a block every {@code --block-interval}
 * seconds (the server's default, {@value LiveDemo#DEFAULT_BLOCK_INTERVAL_SECONDS}; 0: never), so
 * the tip stays current for light clients. It prints the time the build took, the URL and the
 * credentials, and serves until a client calls {@code stop} or the process is interrupted.
 */
public final class EmbeddedNodeMain {
    private EmbeddedNodeMain() {}

    public static void main(String[] args) throws InterruptedException {
        Parsed parsed;
        try {
            parsed = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        if (parsed == null) {
            usage(System.out);
            return;
        }
        long started = System.nanoTime();
        LiveDemo demo;
        try {
            demo = LiveDemo.start(parsed.options(), parsed.config());
        } catch (RuntimeException e) {
            System.err.println("error: " + e.getMessage() + (e.getCause() != null ? " (" + e.getCause() + ")" : ""));
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(demo::close, "embedded-node-shutdown"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        printBanner(System.out, demo, parsed.options(), took);
        demo.node().awaitClose();
        demo.close(); // the 'stop' RPC closed the node: stop the miner too
    }

    /** The options and the node's configuration; null for {@code --help}. */
    record Parsed(LiveDemo.Options options, EmbeddedNode.Config config) {}

    static Parsed parse(String[] args) {
        int blocks = 200;
        long seed = 1;
        boolean standard = false;
        int interval = LiveDemo.DEFAULT_BLOCK_INTERVAL_SECONDS;
        Optional<Instant> start = Optional.empty();
        EmbeddedNode.Config config = EmbeddedNode.Config.defaults();
        String user = config.rpcUser();
        String password = config.rpcPassword();
        int port = 0;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (arg) {
                case "--blocks" -> blocks = integer(arg, value);
                case "--seed" -> seed = Long.parseLong(required(arg, value));
                case "--scenario" -> {
                    if (!"standard".equals(required(arg, value))) {
                        throw new IllegalArgumentException("--scenario takes 'standard'");
                    }
                    standard = true;
                }
                case "--block-interval" -> interval = integer(arg, value);
                case "--start" -> {
                    try {
                        start = Optional.of(Instant.parse(required(arg, value)));
                    } catch (DateTimeParseException e) {
                        throw new IllegalArgumentException(
                                "--start takes a UTC time such as 2025-01-01T00:00:00Z, not " + value);
                    }
                }
                case "--rpcport" -> port = integer(arg, value);
                case "--rpcuser" -> user = required(arg, value);
                case "--rpcpassword" -> password = required(arg, value);
                case "--help", "-h" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
            i++;
        }
        if (blocks < 0 || blocks > 100_000) {
            throw new IllegalArgumentException("--blocks must be in 0..100000: " + blocks);
        }
        if (interval < 0 || interval > LiveDemo.MAX_BLOCK_INTERVAL_SECONDS) {
            throw new IllegalArgumentException(
                    "--block-interval must be 0.." + LiveDemo.MAX_BLOCK_INTERVAL_SECONDS + " seconds: " + interval);
        }
        LiveDemo.Options options = new LiveDemo.Options(blocks, seed, start, Duration.ofSeconds(interval));
        return new Parsed(
                standard ? options.withStandardScenario() : options,
                config.withRpcPort(port).withCredentials(user, password));
    }

    static void printBanner(PrintStream out, LiveDemo demo, LiveDemo.Options options, Duration took) {
        EmbeddedNode node = demo.node();
        out.printf(
                "embedded regtest node: %d blocks, %d scenario transactions (%s) built in %d ms%n",
                node.tipHeight(), demo.scenarioTransactions(), options.spec(), took.toMillis());
        out.println("tip:      " + node.tipHash() + " (block time "
                + node.block(node.tipHash()).orElseThrow().time() + ")");
        out.println("mining:   "
                + (options.blockInterval().isZero()
                        ? "none (--block-interval 0); generatetoaddress mines on demand"
                        : "a block every " + options.blockInterval().toSeconds() + " s (--block-interval)"));
        out.println("rpc:      " + node.rpcUri());
        out.println("user:     " + node.rpcUser());
        out.println("password: " + node.rpcPassword());
        out.println("url:      http://" + enc(node.rpcUser()) + ":" + enc(node.rpcPassword()) + "@"
                + node.rpcUri().getHost() + ":" + node.rpcUri().getPort());
        out.println("stop with: the 'stop' RPC or Ctrl-C");
        out.flush();
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(required(option, value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, not " + value);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String required(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static void usage(PrintStream out) {
        out.println("usage: EmbeddedNodeMain [--blocks N | --scenario standard] [--seed S] [--block-interval SECONDS]");
        out.println("                        [--start TIME] [--rpcport P] [--rpcuser U] [--rpcpassword W]");
        out.println("  --blocks N   demo chain length (default 200)    --seed S  scenario seed (default 1)");
        out.println(
                "  --scenario standard  the 300-block standard scenario (8-16 txs a block) instead of the demo chain");
        out.println("  --block-interval SECONDS  mine a block every SECONDS once the chain is built (default "
                + LiveDemo.DEFAULT_BLOCK_INTERVAL_SECONDS + "); 0: never");
        out.println("  --start TIME first block's time, e.g. 2025-01-01T00:00:00Z (default: counted back from now,");
        out.println(
                "               10 minutes apart, so the last block is now); the same seed and start give the same chain");
        out.println("  --rpcport P  127.0.0.1 port, 0 = any free one (default 0)");
        out.println("  --rpcuser U, --rpcpassword W  credentials (default password: random)");
    }
}
