package org.blockfilter.regtest.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.blockfilter.regtest.RegtestNode;

/**
 * The server's {@code ServerMain} in a child JVM on the test class path, indexing a node into a
 * data directory with {@code --exit-when-synced} and per-block debug logs, so a test can kill it
 * with SIGKILL at chosen moments. Its output lines are queued for the test to read. Not
 * thread-safe; one test thread drives it.
 */
public final class ChildServer implements AutoCloseable {
    /** A line the indexer logs after each block's batch is committed. */
    static final String BLOCK_EVENT = "event=block height=";

    private static final String EOF = "\u0000EOF";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private int lastBlockLogged = -1;

    private ChildServer(Process process) {
        this.process = process;
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("reader failed: " + e);
                    } finally {
                        lines.add(EOF);
                    }
                },
                "child-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ChildServer start(RegtestNode node, Path dataDir) throws IOException {
        String url = "http://" + enc(node.rpcUser()) + ":" + enc(node.rpcPassword()) + "@127.0.0.1:"
                + node.rpcUri().getPort();
        return startMain("--node", url, "--data-dir", dataDir.toString(), "--exit-when-synced");
    }

    /** {@code ServerMain} with these arguments (block events logged at DEBUG). */
    public static ChildServer startMain(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                // The server's own logback.xml, not the test class path's logback-test.xml nor the wallet's
                // logback.xml.
                "-Dlogback.configurationFile=" + serverLogbackConfig(),
                "-Dblockfilter.log.level=DEBUG",
                "-cp",
                System.getProperty("java.class.path"),
                "org.blockfilter.server.ServerMain"));
        cmd.addAll(List.of(args));
        return new ChildServer(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    private static String serverLogbackConfig() {
        try {
            Path serverClasses = Path.of(org.blockfilter.server.ServerMain.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return java.nio.file.Files.isDirectory(serverClasses)
                    ? serverClasses.resolve("logback.xml").toString()
                    : "jar:" + serverClasses.toUri() + "!/logback.xml";
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /**
     * Reads output until a line matches or the process ends; true if a line matched.
     *
     * @throws AssertionError if nothing happens within {@code timeout}
     */
    /**
     * Like {@link #awaitLine}, but a line already read (by an earlier wait for another line) counts
     * too: for lines whose order against others is not fixed, like the first {@code caught_up}
     * against the URL banner (the pipelined indexer may finish before the HTTP server starts).
     */
    public boolean sawOrAwaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
        return seen.stream().anyMatch(match) || awaitLine(match, timeout);
    }

    public boolean awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("child server silent for " + timeout + "; last lines:\n" + tail());
            }
            if (line.equals(EOF)) {
                lines.add(EOF);
                return false;
            }
            record(line);
            if (match.test(line)) {
                return true;
            }
        }
    }

    /** Waits up to {@code d} for the process to exit by itself; true if it did. */
    boolean exitsWithin(Duration d) throws InterruptedException {
        return process.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGKILL, then waits for the process to be gone and drains its output. */
    void killNine() throws InterruptedException {
        // Through the ProcessHandle: Process.destroyForcibly() would also close our end of its
        // output, losing lines it wrote just before dying.
        process.toHandle().destroyForcibly();
        process.waitFor();
        drain();
    }

    /** SIGTERM (what Ctrl-C does to the server), then waits for the exit and returns its code. */
    int terminate(Duration timeout) throws InterruptedException {
        process.toHandle().destroy();
        return awaitExit(timeout);
    }

    /** Every output line read so far. */
    public List<String> lines() {
        return List.copyOf(seen);
    }

    /** Waits for a normal exit and returns the exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child server did not finish within " + timeout + "; last lines:\n" + tail());
        }
        drain();
        return process.exitValue();
    }

    private void drain() throws InterruptedException {
        // The reader thread ends at EOF, which follows the process's death.
        while (true) {
            String line = lines.poll(30, TimeUnit.SECONDS);
            if (line == null || line.equals(EOF)) {
                lines.add(EOF);
                return;
            }
            record(line);
        }
    }

    private void record(String line) {
        seen.add(line);
        lastBlockLogged = Math.max(lastBlockLogged, heightIn(line));
    }

    /** The highest block the child reported as committed, -1 if none. */
    int lastBlockLogged() {
        return lastBlockLogged;
    }

    public String tail() {
        return String.join("\n", seen.subList(Math.max(0, seen.size() - 30), seen.size()));
    }

    static int heightIn(String line) {
        int i = line.indexOf(BLOCK_EVENT);
        if (i < 0) {
            return -1;
        }
        int start = i + BLOCK_EVENT.length();
        int end = start;
        while (end < line.length() && Character.isDigit(line.charAt(end))) {
            end++;
        }
        return Integer.parseInt(line.substring(start, end));
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
