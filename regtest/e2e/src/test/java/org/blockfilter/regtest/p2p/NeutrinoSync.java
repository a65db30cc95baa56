package org.blockfilter.regtest.p2p;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * lightninglabs/neutrino (LND's BIP 157 light client, pinned in {@code src/test/go/neutrino-sync/go.mod}) run
 * as a child process: {@code neutrino-sync} syncs block headers, filter headers and every filter from
 * one peer and checks each filter against its filter header, and, asked to, rescans the chain for
 * transactions paying given addresses. The program is built with the installed Go
 * into {@code target/neutrino-sync/} (modules from the Go module proxy on first use), again whenever its
 * sources are newer than the binary; builds are serialized across processes with a file lock.
 * Stateless.
 */
public final class NeutrinoSync {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(10);
    private static final String SOURCES = "src/test/go/neutrino-sync";

    private NeutrinoSync() {}

    /** A transaction neutrino's rescan reported as paying {@code address}, in the block at {@code height}. */
    public record RescanTx(String address, String txid, int height) {}

    /**
     * What neutrino reported: its tip, phase times (seconds from its start), its byte counters, filter
     * headers if dumped, and, per rescanned address, the transactions paying it and how many blocks its
     * rescan went through.
     */
    public record Result(
            int height,
            String hash,
            String filterHeader,
            double headersSeconds,
            double filterHeadersSeconds,
            double filtersSeconds,
            int filtersVerified,
            long bytesReceived,
            long bytesSent,
            List<String> filterHeaders,
            List<RescanTx> rescanTxs,
            Map<String, Integer> rescannedBlocks,
            String log) {}

    /** The binary, built first if needed; a test skips (fails under {@code CI=true}) when it cannot be built. */
    static Path binaryOrSkip() {
        try {
            return binary();
        } catch (IllegalStateException e) {
            Map<String, String> env = System.getenv();
            if ("true".equalsIgnoreCase(env.getOrDefault("CI", ""))
                    || "true".equalsIgnoreCase(env.getOrDefault("BLOCKFILTER_REQUIRE_BTCD", ""))) {
                throw new AssertionError(
                        "neutrino is required here (CI=true) but could not be built: " + e.getMessage(), e);
            }
            Assumptions.abort("neutrino unavailable, test skipped: " + e.getMessage());
            throw e;
        }
    }

    /**
     * The binary, built first if it is missing or older than its sources.
     *
     * @throws IllegalStateException when Go is missing or the build fails; the message says which, with Go's output
     */
    public static Path binary() {
        Path src = sources();
        Path out = src.resolve("../../../../target/neutrino-sync/neutrino-sync").normalize();
        Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), "blockfilter-neutrino-build.lock");
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            if (upToDate(src, out)) {
                return out;
            }
            String go = goExecutable()
                    .orElseThrow(() -> new IllegalStateException(
                            "Go is not installed (no go on PATH, in $GOROOT/bin or /usr/local/go/bin) to build "
                                    + src));
            Files.createDirectories(out.getParent());
            Path log = Files.createTempFile("neutrino-build", ".log");
            try {
                System.err.println(
                        "[regtest] building neutrino-sync with " + go + " (first time: modules from the Go proxy)");
                Process p = new ProcessBuilder(go, "build", "-o", out.toString(), ".")
                        .directory(src.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
                if (!p.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("go build of " + src + " did not finish within " + BUILD_TIMEOUT);
                }
                if (p.exitValue() != 0 || !Files.isExecutable(out)) {
                    throw new IllegalStateException("go build of " + src + " failed (exit " + p.exitValue() + "): "
                            + Files.readString(log, StandardCharsets.UTF_8));
                }
                return out;
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot build neutrino-sync: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building neutrino-sync", e);
        }
    }

    /**
     * Syncs a fresh neutrino in {@code dataDir} from {@code peer} to {@code height}.
     *
     * @throws AssertionError when neutrino reports an error or exits otherwise than 0; the message has its log
     */
    public static Result sync(
            Path binary, String peer, int height, Path dataDir, Duration timeout, boolean dumpFilterHeaders)
            throws IOException, InterruptedException {
        return sync(binary, peer, height, dataDir, timeout, dumpFilterHeaders, -1, List.of());
    }

    /**
     * {@link #sync}, with neutrino asking at most {@code retries} more times for a filter it did not get
     * or verify (-1: its default), then one neutrino rescan per address of {@code rescanAddresses}
     * (regtest), from the genesis block to {@code height}, reporting the transactions that pay it.
     */
    public static Result sync(
            Path binary,
            String peer,
            int height,
            Path dataDir,
            Duration timeout,
            boolean dumpFilterHeaders,
            int retries,
            List<String> rescanAddresses)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                binary.toString(),
                "-peer",
                peer,
                "-height",
                Integer.toString(height),
                "-datadir",
                dataDir.toString(),
                "-timeout",
                timeout.toSeconds() + "s"));
        if (dumpFilterHeaders) {
            cmd.add("-dump-filter-headers");
        }
        if (retries >= 0) {
            cmd.addAll(List.of("-retries", Integer.toString(retries)));
        }
        for (String address : rescanAddresses) {
            cmd.addAll(List.of("-rescan", address));
        }
        Path stdout = Files.createTempFile("neutrino", ".out");
        Path stderr = Files.createTempFile("neutrino", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!p.waitFor(timeout.toSeconds() + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor();
            }
            String log = tail(Files.readString(stderr, StandardCharsets.UTF_8), 6000);
            List<String> filterHeaders = new ArrayList<>();
            List<RescanTx> rescanTxs = new ArrayList<>();
            Map<String, Integer> rescannedBlocks = new HashMap<>();
            JsonNode result = null;
            for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
                JsonNode n = JSON.readTree(line);
                if (n.has("error")) {
                    throw new AssertionError("neutrino: " + n.get("error").asText() + "; its log:\n" + log);
                }
                if (n.has("filterHeader")) {
                    JsonNode f = n.get("filterHeader");
                    if (f.get("height").asInt() != filterHeaders.size()) {
                        throw new AssertionError("filter headers out of order at " + f);
                    }
                    filterHeaders.add(f.get("header").asText());
                }
                if (n.has("rescanTx")) {
                    JsonNode t = n.get("rescanTx");
                    rescanTxs.add(new RescanTx(
                            t.get("address").asText(),
                            t.get("txid").asText(),
                            t.get("height").asInt()));
                }
                if ("rescan".equals(n.path("phase").asText())) {
                    rescannedBlocks.put(
                            n.get("address").asText(), n.get("blocks").asInt());
                }
                if (n.has("result")) {
                    result = n.get("result");
                }
            }
            if (p.exitValue() != 0 || result == null) {
                throw new AssertionError(
                        "neutrino-sync exited " + p.exitValue() + " without a result; its log:\n" + log);
            }
            return new Result(
                    result.get("height").asInt(),
                    result.get("hash").asText(),
                    result.get("filterHeader").asText(),
                    result.get("headersSeconds").asDouble(),
                    result.get("filterHeadersSeconds").asDouble(),
                    result.get("filtersSeconds").asDouble(),
                    result.get("filtersVerified").asInt(),
                    result.get("bytesReceived").asLong(),
                    result.get("bytesSent").asLong(),
                    List.copyOf(filterHeaders),
                    List.copyOf(rescanTxs),
                    Map.copyOf(rescannedBlocks),
                    log);
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    private static String tail(String s, int chars) {
        return s.length() <= chars ? s : "..." + s.substring(s.length() - chars);
    }

    /** The program's sources: under the working directory (the e2e module, as surefire runs) or the repository root. */
    private static Path sources() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path candidate :
                List.of(cwd.resolve(SOURCES), cwd.resolve("regtest/e2e").resolve(SOURCES))) {
            if (Files.isRegularFile(candidate.resolve("go.mod"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find " + SOURCES + " under " + cwd);
    }

    private static boolean upToDate(Path src, Path out) throws IOException {
        if (!Files.isExecutable(out)) {
            return false;
        }
        FileTime built = Files.getLastModifiedTime(out);
        try (Stream<Path> files = Files.list(src)) {
            return files.allMatch(f -> {
                try {
                    return Files.getLastModifiedTime(f).compareTo(built) <= 0;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static Optional<String> goExecutable() {
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "go"));
            }
        }
        String goroot = System.getenv("GOROOT");
        if (goroot != null && !goroot.isBlank()) {
            candidates.add(Path.of(goroot, "bin", "go"));
        }
        candidates.add(Path.of("/usr/local/go/bin/go"));
        return candidates.stream()
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                .map(Path::toString)
                .findFirst();
    }
}
