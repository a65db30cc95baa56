package org.blockfilter.regtest.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start is a test: the server command of "Two commands" and the wallet block
 * of "Sync a light wallet against it" are read from README.md itself and run as written with
 * the packaged jars (bash, from a directory that holds the repository's {@code server} and
 * {@code wallet}), the server on free ports instead of 8157/8158. The block creates a wallet,
 * funds it from the faucet, syncs, shows the balance, pays a second wallet, and that wallet's
 * sync and balance (its last line) show the payment once the next block is mined. Skips when the
 * jars are not built (fails under CI=true).
 */
class ReadmeQuickStartTest {
    /** Generous: on the loaded 2-core machine the 300-block demo builds and indexes in about a minute. */
    private static final Duration SERVER_START = Duration.ofMinutes(4);
    /** Each wallet command starts a JVM (scrypt included); the whole block takes well under this. */
    private static final Duration BLOCK_RUN = Duration.ofMinutes(5);
    /** The demo mines every 10 s; the recipient sees the payment after the next block is indexed. */
    private static final Duration PAYMENT_SEEN = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void theQuickStartRunsAsWrittenFromFaucetToAConfirmedPayment() throws Exception {
        Path root = repositoryRoot();
        Path serverJar = root.resolve("server/target/blockfilter-server.jar");
        Path walletJar = root.resolve("wallet/cli/target/blockfilter-wallet.jar");
        requireBuilt(serverJar, walletJar);
        String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
        String serverCommand = serverCommand(readme);
        List<String> block = walletBlock(readme);
        assertTrue(block.stream().anyMatch(l -> l.contains("/api/v1/demo/faucet")), "the block uses the faucet");

        // The commands' relative paths (server/..., wallet/...) resolve here; the wallets are written here.
        Files.createSymbolicLink(dir.resolve("server"), root.resolve("server"));
        Files.createSymbolicLink(dir.resolve("wallet"), root.resolve("wallet"));
        int port = freePort();
        String server = serverCommand + " --port " + port + " --p2p-port 0";
        Process serverProcess = new ProcessBuilder("bash", "-c", "exec " + server)
                .directory(dir.toFile())
                .redirectError(dir.resolve("server.err").toFile())
                .start();
        try {
            BlockingQueue<String> banner = lines(serverProcess);
            String ready = awaitLine(banner, l -> l.startsWith("Ctrl-C"), SERVER_START, dir.resolve("server.err"));
            assertEquals("Ctrl-C to stop.", ready);

            List<String> script = new ArrayList<>();
            script.add("set -euo pipefail");
            for (String line : block) {
                script.add(line.replace("127.0.0.1:8157", "127.0.0.1:" + port));
            }
            Run run = bash(String.join("\n", script), BLOCK_RUN);
            assertEquals(0, run.code(), "the quick start failed:\n" + run);
            assertTrue(run.out().contains("\"txid\""), "the faucet answered with a txid:\n" + run);
            assertTrue(run.out().contains("spendable 1.5 BTC"), "the faucet's 1.5 BTC synced:\n" + run);

            // The block's last line shows the recipient's balance; the payment counts once a block confirms it.
            List<String> again = new ArrayList<>(List.of("set -euo pipefail"));
            block.stream()
                    .filter(l -> l.startsWith("export ") || l.matches("^[A-Z]+=\".*"))
                    .map(l -> l.replaceAll("&&.*", "").trim())
                    .forEach(again::add);
            again.add(block.get(block.size() - 1).replace("127.0.0.1:8157", "127.0.0.1:" + port));
            long deadline = System.nanoTime() + PAYMENT_SEEN.toNanos();
            Run last = run;
            while (!lastLine(last.out()).startsWith("spendable 0.01 BTC")) {
                assertTrue(
                        System.nanoTime() < deadline,
                        "the recipient never saw 0.01 BTC within " + PAYMENT_SEEN + ":\n" + last);
                Thread.sleep(2_000); // the next block is at most 10 s away; polling a whole CLI run
                last = bash(String.join("\n", again), BLOCK_RUN);
                assertEquals(0, last.code(), last.toString());
            }
        } finally {
            serverProcess.destroy();
            if (!serverProcess.waitFor(60, TimeUnit.SECONDS)) {
                serverProcess.destroyForcibly();
            }
        }
    }

    /** The part after {@code &&} of the first command of "Two commands": the server's start. */
    static String serverCommand(String readme) {
        String section = readme.substring(readme.indexOf("## Two commands"));
        String first = codeBlocks(section).get(0).get(0);
        assertTrue(first.contains("&& java -jar server/target/blockfilter-server.jar"), first);
        return first.substring(first.indexOf("&&") + 2).trim();
    }

    /** The first sh block of "Sync a light wallet against it", comments dropped. */
    static List<String> walletBlock(String readme) {
        String section = readme.substring(readme.indexOf("### Sync a light wallet against it"));
        return codeBlocks(section).get(0).stream()
                .map(l -> l.replaceAll("\\s+# [^\"]*$", "").trim())
                .filter(l -> !l.isEmpty())
                .toList();
    }

    private static List<List<String>> codeBlocks(String markdown) {
        List<List<String>> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(markdown);
        while (m.find()) {
            blocks.add(List.of(m.group(1).split("\\n")));
        }
        return blocks;
    }

    private record Run(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr (tail)\n"
                    + (err.length() > 4000 ? "..." + err.substring(err.length() - 4000) : err);
        }
    }

    private Run bash(String script, Duration timeout) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().remove("BLOCKFILTER_PASSPHRASE");
        Process p = pb.start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\\n");
        return lines[lines.length - 1];
    }

    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread t = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            q.add(line);
                        }
                    } catch (IOException e) {
                        q.add("reader failed: " + e);
                    }
                },
                "readme-server-stdout");
        t.setDaemon(true);
        t.start();
        return q;
    }

    private static String awaitLine(
            BlockingQueue<String> q, java.util.function.Predicate<String> match, Duration timeout, Path log)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> seen = new ArrayList<>();
        while (true) {
            String line = q.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("the server printed no line matching within " + timeout + "; stdout:\n"
                        + String.join("\n", seen) + "\nstderr:\n" + Files.readString(log));
            }
            seen.add(line);
            if (match.test(line)) {
                return line;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Path repositoryRoot() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("regtest/e2e"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root above " + cwd);
    }

    private static void requireBuilt(Path... jars) {
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                Map<String, String> env = System.getenv();
                String why = jar + " is not built (./mvnw -B -q -DskipTests package)";
                if ("true".equalsIgnoreCase(env.getOrDefault("CI", ""))) {
                    throw new AssertionError(why);
                }
                Assumptions.abort(why);
            }
        }
    }
}
