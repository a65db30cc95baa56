package org.blockfilter.regtest.p2p;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.blockfilter.regtest.bdk.BdkPython;
import org.blockfilter.regtest.internal.TempDirs;
import org.blockfilter.regtest.mainnet.MainnetProfile;
import org.blockfilter.regtest.mainnet.MainnetProfileRpcMain;
import org.blockfilter.regtest.mainnet.ProfileChain;
import org.blockfilter.regtest.mainnet.RecentBlockTimes;
import org.blockfilter.regtest.wallet.CountingProxy;
import org.blockfilter.server.ServerMain;
import org.blockfilter.wallet.cli.WalletCli;

/**
 * Measures (does not test) light clients syncing a mainnet-profile chain with block times ending now
 * ({@link RecentBlockTimes}; ~19.6 KB filters) from our server, in one run: our wallet over P2P
 * ({@code sync --peer}) and over REST ({@code sync --server}), lightninglabs/neutrino
 * ({@link NeutrinoSync}) and BDK's Kyoto client ({@link BdkCbfWallet}), each from an empty start to the
 * tip, each as its own process, each through its own {@link CountingProxy} (bytes both ways on the wire).
 * The server indexes the chain once ({@code ServerMain --exit-when-synced}, timed), then serves it
 * (REST and P2P) from that index for every client. Rounds run the clients in a rotated order; the
 * table has the median wall seconds per client and the ratio of ours to the fastest other client.
 * Prints {@code uptime} before and after. Run by hand (docs/benchmarks.md):
 * {@code LightClientSyncBenchmark [steadyBlocks [rounds [csvFile]]]} (6,000, 1, none).
 */
public final class LightClientSyncBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MNEMONIC =
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
    /** A ramp of ~10 blocks: enough unspent outputs for the first steady block to spend (see docs/benchmarks.md). */
    private static final int UTXO_TARGET = 200_000;

    private static final Duration CLIENT_TIMEOUT = Duration.ofMinutes(30);
    /** The packaged wallet, as a user runs it; without it the test classpath (~100 jars) is used, which starts slower. */
    private static final Path WALLET_JAR = Path.of("../../wallet/cli/target/blockfilter-wallet.jar")
            .toAbsolutePath()
            .normalize();

    private LightClientSyncBenchmark() {}

    /** One client's sync: wall seconds of its process, bytes through its proxy, filters it checked, where it ended. */
    record Run(
            String client,
            double seconds,
            double innerSeconds,
            long bytesDown,
            long bytesUp,
            int filters,
            int height,
            String note) {}

    public static void main(String[] args) throws Exception {
        int steady = args.length > 0 ? Integer.parseInt(args[0]) : 6_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Path csv = args.length > 2 ? Path.of(args[2]) : null;
        PrintStream out = System.out;
        out.println("uptime before: " + uptime());
        MainnetProfile profile =
                MainnetProfile.MAINNET.withUtxoTarget(UTXO_TARGET).withSteadyBlocks(steady);
        Path cache = Path.of("target", "mainnet-profile").toAbsolutePath();
        long t0 = System.nanoTime();
        Path chainFile = RecentBlockTimes.ensure(profile, cache, Instant.now(), out);
        int tip;
        try (ProfileChain chain = ProfileChain.open(chainFile)) {
            tip = chain.tipHeight();
            out.printf(
                    Locale.ROOT,
                    "chain: %s, tip %d (ramp to %d), steady filter elements %s, ready in %.0f s%n",
                    chainFile.getFileName(),
                    tip,
                    chain.rampEndHeight(),
                    chain.meta().getProperty("steady.filter_elements"),
                    seconds(t0));
        }
        Path work = Files.createTempDirectory("light-client-sync");
        List<Process> children = new ArrayList<>();
        try {
            Path portFile = work.resolve("node.port");
            children.add(java(
                    "-Xmx1g",
                    work.resolve("node.log"),
                    MainnetProfileRpcMain.class.getName(),
                    "--cache-dir",
                    cache.toString(),
                    "--utxo-target",
                    Integer.toString(UTXO_TARGET),
                    "--steady-blocks",
                    Integer.toString(steady),
                    "--recent-block-times",
                    "--port-file",
                    portFile.toString()));
            awaitFile(portFile, Duration.ofMinutes(2));
            String node = "http://mp:mp@127.0.0.1:" + Files.readString(portFile).trim();
            Path index = work.resolve("index");

            long i0 = System.nanoTime();
            Process indexer = java(
                    "-Xmx1g",
                    work.resolve("index.log"),
                    ServerMain.class.getName(),
                    "--node",
                    node,
                    "--data-dir",
                    index.toString(),
                    "--exit-when-synced");
            if (!indexer.waitFor(2, TimeUnit.HOURS) || indexer.exitValue() != 0) {
                throw new IllegalStateException("indexing failed; see " + work.resolve("index.log"));
            }
            out.printf(
                    Locale.ROOT,
                    "server indexed %d blocks once in %.1f s (uptime %s)%n",
                    tip + 1,
                    seconds(i0),
                    uptime());

            int restPort = freePort();
            int p2pPort = freePort();
            children.add(java(
                    "-Xmx1g",
                    work.resolve("server.log"),
                    ServerMain.class.getName(),
                    "--node",
                    node,
                    "--data-dir",
                    index.toString(),
                    "--port",
                    Integer.toString(restPort),
                    "--p2p-port",
                    Integer.toString(p2pPort)));
            awaitPort(restPort);
            awaitPort(p2pPort);

            Path neutrino = NeutrinoSync.binary();
            BdkPython python = BdkPython.locateOrInstall(BdkPython.defaultVenv(), System.getenv());
            List<String> clients = List.of("ours-p2p", "ours-rest", "neutrino", "kyoto");
            Map<String, List<Run>> runs = new TreeMap<>();
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < clients.size(); i++) {
                    String client = clients.get((i + round) % clients.size());
                    Path dir = Files.createDirectories(work.resolve(client + "-" + round));
                    InetSocketAddress target =
                            new InetSocketAddress("127.0.0.1", client.equals("ours-rest") ? restPort : p2pPort);
                    Run r;
                    try (CountingProxy proxy = new CountingProxy(target)) {
                        r = switch (client) {
                            case "ours-p2p" ->
                                ours(
                                        client,
                                        "--peer",
                                        "127.0.0.1:" + proxy.address().getPort(),
                                        dir,
                                        proxy);
                            case "ours-rest" ->
                                ours(
                                        client,
                                        "--server",
                                        "http://127.0.0.1:" + proxy.address().getPort(),
                                        dir,
                                        proxy);
                            case "neutrino" -> neutrino(neutrino, tip, dir, proxy);
                            default -> kyoto(python, tip, dir, proxy);
                        };
                    }
                    out.printf(Locale.ROOT, "round %d: %s%n", round + 1, r);
                    runs.computeIfAbsent(client, k -> new ArrayList<>()).add(r);
                }
            }
            report(out, runs, tip, csv);
        } finally {
            for (Process p : children) {
                p.destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
            TempDirs.deleteQuietly(work);
        }
        out.println("uptime after: " + uptime());
    }

    private static Run ours(String client, String option, String source, Path dir, CountingProxy proxy)
            throws Exception {
        Path wallet = dir.resolve("w.json");
        Path mnemonic = dir.resolve("mnemonic.txt");
        Files.writeString(mnemonic, MNEMONIC, StandardCharsets.UTF_8);
        cli(
                dir,
                "--wallet",
                wallet.toString(),
                "restore",
                "--mnemonic-file",
                mnemonic.toString(),
                "--birthday-height",
                "0",
                "--seal",
                "secret-only");
        proxy.reset();
        long t = System.nanoTime();
        JsonNode j =
                JSON.readTree(cli(dir, "--wallet", wallet.toString(), "--json", "sync", "--quiet", option, source));
        double s = seconds(t);
        return new Run(
                client,
                s,
                j.path("millis").asLong(-1) / 1000.0,
                proxy.bytesDown(),
                proxy.bytesUp(),
                j.path("filtersScanned").asInt(-1),
                j.path("height").asInt(-1),
                "inner = the sync's own millis (JVM start, wallet load and save excluded)");
    }

    private static Run neutrino(Path binary, int tip, Path dir, CountingProxy proxy) throws Exception {
        long t = System.nanoTime();
        NeutrinoSync.Result r = NeutrinoSync.sync(
                binary, "127.0.0.1:" + proxy.address().getPort(), tip, dir.resolve("neutrino"), CLIENT_TIMEOUT, false);
        double s = seconds(t);
        return new Run(
                "neutrino",
                s,
                r.filtersSeconds(),
                proxy.bytesDown(),
                proxy.bytesUp(),
                r.filtersVerified(),
                r.height(),
                String.format(
                        Locale.ROOT,
                        "headers %.1f s, filter headers %.1f s, filters %.1f s; its own count %d B in, %d B out",
                        r.headersSeconds(),
                        r.filterHeadersSeconds(),
                        r.filtersSeconds(),
                        r.bytesReceived(),
                        r.bytesSent()));
    }

    private static Run kyoto(BdkPython python, int tip, Path dir, CountingProxy proxy) throws Exception {
        long t = System.nanoTime();
        try (BdkCbfWallet bdk = new BdkCbfWallet(python, proxy.address().getPort(), dir)) {
            BdkCbfWallet.State s = bdk.update(CLIENT_TIMEOUT);
            for (int i = 0; i < 5 && s.height() < tip; i++) {
                s = bdk.update(CLIENT_TIMEOUT);
            }
            double secs = seconds(t);
            // Kyoto's log names no count of filters; it reports a sync only once every filter to the tip was checked.
            return new Run(
                    "kyoto",
                    secs,
                    Double.NaN,
                    proxy.bytesDown(),
                    proxy.bytesUp(),
                    s.height() == tip ? tip : -1,
                    s.height(),
                    "filters checked against filter headers inside Kyoto; count = tip when synced");
        }
    }

    private static void report(PrintStream out, Map<String, List<Run>> runs, int tip, Path csv) throws IOException {
        StringBuilder table = new StringBuilder(
                "| client | median wall s | median inner s | bytes down (median) | bytes up (median) | filters checked | tip reached |\n"
                        + "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
        StringBuilder rows =
                new StringBuilder("client,round,seconds,inner_seconds,bytes_down,bytes_up,filters,height\n");
        Map<String, Double> medians = new TreeMap<>();
        for (var e : runs.entrySet()) {
            List<Run> rs = e.getValue();
            double m = median(rs.stream().map(Run::seconds).toList());
            medians.put(e.getKey(), m);
            Run last = rs.get(rs.size() - 1);
            double inner = median(rs.stream().map(Run::innerSeconds).toList());
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f | %s | %,d | %,d | %d | %s |%n",
                    e.getKey(),
                    m,
                    Double.isNaN(inner) ? "n/a" : String.format(Locale.ROOT, "%.1f", inner),
                    Math.round(
                            median(rs.stream().map(r -> (double) r.bytesDown()).toList())),
                    Math.round(median(rs.stream().map(r -> (double) r.bytesUp()).toList())),
                    last.filters(),
                    rs.stream().allMatch(r -> r.height() == tip) ? "yes" : "no"));
            for (int i = 0; i < rs.size(); i++) {
                Run r = rs.get(i);
                rows.append(String.format(
                        Locale.ROOT,
                        "%s,%d,%.2f,%s,%d,%d,%d,%d%n",
                        r.client(),
                        i + 1,
                        r.seconds(),
                        Double.isNaN(r.innerSeconds()) ? "" : String.format(Locale.ROOT, "%.2f", r.innerSeconds()),
                        r.bytesDown(),
                        r.bytesUp(),
                        r.filters(),
                        r.height()));
            }
        }
        out.print(table);
        double fastestPeer = Math.min(
                medians.getOrDefault("neutrino", Double.MAX_VALUE), medians.getOrDefault("kyoto", Double.MAX_VALUE));
        for (String ours : List.of("ours-p2p", "ours-rest")) {
            if (medians.containsKey(ours)) {
                out.printf(
                        Locale.ROOT,
                        "%s / fastest of neutrino and kyoto: %.2f%n",
                        ours,
                        medians.get(ours) / fastestPeer);
            }
        }
        if (csv != null) {
            Files.writeString(csv, rows, StandardCharsets.UTF_8);
            out.println("per-run rows written to " + csv);
        }
    }

    /** The wallet CLI as a process (the packaged logging); its stdout, or an error with its stderr. */
    private static String cli(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaBin()));
        if (Files.isRegularFile(WALLET_JAR)) {
            cmd.addAll(List.of("-jar", WALLET_JAR.toString()));
        } else {
            cmd.addAll(List.of(
                    "-Dlogback.configurationFile=logback.xml",
                    "-cp",
                    System.getProperty("java.class.path"),
                    WalletCli.class.getName()));
        }
        cmd.addAll(List.of(args));
        Path o = Files.createTempFile(dir, "cli", ".out");
        Path e = Files.createTempFile(dir, "cli", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(o.toFile()).redirectError(e.toFile());
        pb.environment().put("BLOCKFILTER_PASSPHRASE", "bench");
        Process p = pb.start();
        if (!p.waitFor(CLIENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("wallet " + String.join(" ", args) + " failed: " + Files.readString(e));
        }
        return Files.readString(o, StandardCharsets.UTF_8);
    }

    private static Process java(String heap, Path log, String main, String... args) throws IOException {
        List<String> cmd =
                new ArrayList<>(List.of(javaBin(), heap, "-cp", System.getProperty("java.class.path"), main));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> s = values.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                TimeUnit.MILLISECONDS.sleep(200);
            }
        }
        throw new IllegalStateException("nothing listens on 127.0.0.1:" + port + " after 2 minutes");
    }

    private static void awaitFile(Path f, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(f)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(f + " did not appear within " + timeout);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private static String uptime() {
        try {
            Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor();
            return s;
        } catch (IOException e) {
            return "(uptime unavailable: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }
}
