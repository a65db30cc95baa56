package org.blockfilter.regtest.embedded;

import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.blockfilter.regtest.scenario.ScenarioSpec;

/**
 * Runs the embedded node alone with its JSON-RPC port, so tools and our server can point at it:
 * {@code EmbeddedNodeMain [--blocks N | --scenario standard] [--seed S] [--rpcport P] [--rpcuser U] [--rpcpassword W]}.
 * It mines a deterministic demo chain of N blocks (default 200) with the scenario generator, or
 * the 300-block standard scenario, prints the time it took, the URL and the
 * credentials, and serves until a client calls {@code stop} or the process is interrupted.
 */
public final class EmbeddedNodeMain {
    private EmbeddedNodeMain() {}

    public static void main(String[] args) throws InterruptedException {
        int blocks = 200;
        long seed = 1;
        boolean standard = false;
        EmbeddedNode.Config config = EmbeddedNode.Config.defaults();
        String user = config.rpcUser();
        String password = config.rpcPassword();
        int port = 0;
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (arg) {
                    case "--blocks" -> blocks = Integer.parseInt(required(arg, value));
                    case "--seed" -> seed = Long.parseLong(required(arg, value));
                    case "--scenario" -> {
                        if (!"standard".equals(required(arg, value))) {
                            throw new IllegalArgumentException("--scenario takes 'standard'");
                        }
                        standard = true;
                    }
                    case "--rpcport" -> port = Integer.parseInt(required(arg, value));
                    case "--rpcuser" -> user = required(arg, value);
                    case "--rpcpassword" -> password = required(arg, value);
                    case "--help", "-h" -> {
                        usage(System.out);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
                i++;
            }
            if (blocks < 0 || blocks > 100_000) {
                throw new IllegalArgumentException("--blocks must be in 0..100000");
            }
            config = config.withRpcPort(port).withCredentials(user, password);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        SettableClock clock = SettableClock.at(DemoChain.START);
        ScenarioSpec spec = standard ? ScenarioSpec.standard(seed) : DemoChain.spec(Math.max(blocks, 1), seed);
        EmbeddedNode node;
        try {
            node = blocks == 0 && !standard
                    ? EmbeddedNode.start(config.withClock(clock))
                    : DemoChain.startFor(spec, config, clock);
        } catch (RuntimeException e) {
            System.err.println("error: " + e.getMessage() + (e.getCause() != null ? " (" + e.getCause() + ")" : ""));
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(node::close, "embedded-node-shutdown"));
        long started = System.nanoTime();
        int txs = 0;
        try {
            if (blocks > 0 || standard) {
                txs = DemoChain.build(node, clock, spec, line -> {})
                        .transactions()
                        .size();
            }
            clock.followSystemTime();
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        PrintStream out = System.out;
        out.printf(
                "embedded regtest node: %d blocks, %d scenario transactions (%s) built in %d ms%n",
                node.tipHeight(), txs, spec, took.toMillis());
        out.println("tip:      " + node.tipHash());
        out.println("rpc:      " + node.rpcUri());
        out.println("user:     " + node.rpcUser());
        out.println("password: " + node.rpcPassword());
        out.println("url:      http://" + enc(node.rpcUser()) + ":" + enc(node.rpcPassword()) + "@"
                + node.rpcUri().getHost() + ":" + node.rpcUri().getPort());
        out.println("stop with: the 'stop' RPC or Ctrl-C");
        out.flush();
        node.awaitClose();
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
        out.println(
                "usage: EmbeddedNodeMain [--blocks N | --scenario standard] [--seed S] [--rpcport P] [--rpcuser U] [--rpcpassword W]");
        out.println("  --blocks N   demo chain length (default 200)    --seed S  scenario seed (default 1)");
        out.println(
                "  --scenario standard  the 300-block standard scenario (8-16 txs a block) instead of the demo chain");
        out.println("  --rpcport P  127.0.0.1 port, 0 = any free one (default 0)");
    }
}
