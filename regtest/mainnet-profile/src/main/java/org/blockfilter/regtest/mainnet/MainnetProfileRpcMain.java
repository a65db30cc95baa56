package org.blockfilter.regtest.mainnet;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.blockfilter.regtest.mainnet.internal.RpcHandler;

/**
 * Generates (or reuses) a mainnet-profile chain and serves it on 127.0.0.1 over Bitcoin Core's
 * JSON-RPC with basic authentication, like a regtest node that has the whole chain. Options:
 *
 * <pre>
 *   --cache-dir DIR          where chain files live (default target/mainnet-profile)
 *   --seed N --utxo-target N --ramp-outputs-per-block N --steady-blocks N --tx-per-block N
 *                            the profile (defaults: MainnetProfile.MAINNET)
 *   --recent-block-times     block times that end now (RecentBlockTimes) instead of the
 *                            fixed ones from regtest genesis; a separate cache file
 *   --generate-only          generate the chain file, print its path and meta, exit
 *   --port N                 0 (default) for a free port
 *   --port-file FILE         write the bound port there once serving
 *   --user U --password P    RPC credentials (default mp / mp)
 *   --cookie-file FILE       also write a Core-style cookie (__cookie__:P) there
 *   --served-height N        the tip reported at start (default: the chain's tip); the
 *                            setservedheight RPC moves it
 * </pre>
 *
 * Exit codes: 0 after {@code stop} or {@code --generate-only}, 2 for bad options.
 */
public final class MainnetProfileRpcMain {
    private MainnetProfileRpcMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        MainnetProfile profile = MainnetProfile.MAINNET;
        Path cacheDir = Path.of("target", "mainnet-profile");
        boolean generateOnly = false;
        boolean recentTimes = false;
        int port = 0;
        Path portFile = null;
        Path cookieFile = null;
        String user = "mp";
        String password = "mp";
        Integer served = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--generate-only")) {
                    generateOnly = true;
                    continue;
                }
                if (a.equals("--recent-block-times")) {
                    recentTimes = true;
                    continue;
                }
                if (a.equals("--help")) {
                    out.println("usage: MainnetProfileRpcMain [--cache-dir DIR] [--seed N] [--utxo-target N]"
                            + " [--ramp-outputs-per-block N] [--steady-blocks N] [--tx-per-block N] [--recent-block-times] [--generate-only]"
                            + " [--port N] [--port-file FILE] [--user U] [--password P] [--cookie-file FILE]"
                            + " [--served-height N]");
                    return 0;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--cache-dir" -> cacheDir = Path.of(v);
                    case "--seed" -> profile = profile.withSeed(Long.parseLong(v));
                    case "--utxo-target" -> profile = profile.withUtxoTarget(Integer.parseInt(v));
                    case "--ramp-outputs-per-block" -> profile = profile.withRampOutputsPerBlock(Integer.parseInt(v));
                    case "--steady-blocks" -> profile = profile.withSteadyBlocks(Integer.parseInt(v));
                    case "--tx-per-block" -> profile = profile.withTxPerBlock(Integer.parseInt(v));
                    case "--reuse-share" -> profile = profile.withReuseShare(Double.parseDouble(v));
                    case "--change-to-self-share" -> profile = profile.withChangeToSelfShare(Double.parseDouble(v));
                    case "--port" -> port = Integer.parseInt(v);
                    case "--port-file" -> portFile = Path.of(v);
                    case "--cookie-file" -> cookieFile = Path.of(v);
                    case "--user" -> user = v;
                    case "--password" -> password = v;
                    case "--served-height" -> served = Integer.parseInt(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--port must be 0..65535: " + port);
            }
        } catch (IllegalArgumentException e) {
            err.println("mainnet-profile: " + e.getMessage() + " (see --help)");
            return 2;
        }
        Path file = recentTimes
                ? RecentBlockTimes.ensure(profile, cacheDir, java.time.Instant.now(), out)
                : ChainGenerator.ensure(profile, cacheDir, out);
        ProfileChain chain = ProfileChain.open(file);
        out.printf(
                Locale.ROOT,
                "mainnet-profile: chain %s tip=%d ramp_end=%d%n",
                file,
                chain.tipHeight(),
                chain.rampEndHeight());
        if (generateOnly) {
            chain.meta().forEach((k, v) -> out.println("  " + k + "=" + v));
            chain.close();
            return 0;
        }
        int start = served == null ? chain.tipHeight() : served;
        if (start < 0 || start > chain.tipHeight()) {
            err.println("mainnet-profile: --served-height must be 0.." + chain.tipHeight());
            return 2;
        }
        // Without this the JDK server delays small answers ~40 ms (Nagle vs delayed ACK).
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "mainnet-profile-rpc");
            t.setDaemon(true);
            return t;
        });
        RpcHandler handler = new RpcHandler(chain, user, password, start, stopped::countDown);
        http.createContext("/", handler::handle);
        http.setExecutor(pool);
        http.start();
        int bound = http.getAddress().getPort();
        if (cookieFile != null) {
            Files.writeString(cookieFile, "__cookie__:" + password, StandardCharsets.UTF_8);
        }
        if (portFile != null) {
            Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
            Files.writeString(tmp, Integer.toString(bound), StandardCharsets.UTF_8);
            Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
        }
        out.printf(
                Locale.ROOT,
                "mainnet-profile: serving http://%s:%s@127.0.0.1:%d (served height %d)%n",
                user,
                password,
                bound,
                start);
        out.flush();
        Thread hook = new Thread(stopped::countDown);
        Runtime.getRuntime().addShutdownHook(hook);
        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook is what stopped us
        }
        http.stop(0);
        pool.shutdownNow();
        chain.close();
        return 0;
    }
}
