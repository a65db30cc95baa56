package org.blockfilter.regtest.btcd;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.blockfilter.regtest.RegtestNodeException;

/**
 * Finds the btcd binary, installing it with {@code go install} when it is missing. Lookup order:
 * {@code $BTCD_BIN} (if set, it must point to an executable: no fallback, so a wrong setting is
 * an error rather than a surprise), then {@code PATH}, then {@code $(go env GOPATH)/bin}. The
 * install is serialized across processes with a file lock and lands in {@code GOPATH/bin}, where
 * later runs find it. Stateless.
 */
public final class BtcdBinary {
    /** The module we install; v0.26.0 serves BIP 157/158 and BIP 37 and has invalidateblock. */
    public static final String MODULE = "github.com/btcsuite/btcd@v0.26.0";

    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration GO_ENV_TIMEOUT = Duration.ofSeconds(60);

    private BtcdBinary() {}

    /** The binary if it is already there (no install). */
    public static Optional<Path> find(Map<String, String> env) {
        String explicit = env.get("BTCD_BIN");
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit);
            return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        return onPath(env).or(() -> goPathBin(env).filter(BtcdBinary::isExecutable));
    }

    /**
     * The binary, installed first if needed.
     *
     * @throws RegtestNodeException if {@code BTCD_BIN} points nowhere, or btcd is missing and cannot be
     *                       installed (no Go, no network, build failure); the message says which
     */
    public static Path locateOrInstall(Map<String, String> env) {
        String explicit = env.get("BTCD_BIN");
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit);
            if (!isExecutable(p)) {
                throw new RegtestNodeException("BTCD_BIN=" + explicit + " is not an executable file", null);
            }
            return p;
        }
        Optional<Path> found = find(env);
        if (found.isPresent()) {
            return found.get();
        }
        Path target = goPathBin(env)
                .orElseThrow(() -> new RegtestNodeException(
                        "btcd is not installed (not on PATH, BTCD_BIN unset) and Go is not available to install it"
                                + " (go install " + MODULE + ")",
                        null));
        return install(target);
    }

    private static Path install(Path target) {
        Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), "blockfilter-btcd-install.lock");
        Instant deadline = Instant.now().plus(INSTALL_TIMEOUT);
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            while (lock == null) {
                if (Instant.now().isAfter(deadline)) {
                    throw new RegtestNodeException(
                            "timed out waiting for another btcd install (lock " + lockFile + ")", null);
                }
                // Another process is installing: wait for its lock, then use its result.
                TimeUnit.MILLISECONDS.sleep(500);
                lock = channel.tryLock();
            }
            try {
                if (isExecutable(target)) {
                    return target;
                }
                System.err.println(
                        "[regtest] installing btcd: go install " + MODULE + " (about a minute on a fresh machine)");
                Path out = Files.createTempFile("blockfilter-btcd-install", ".log");
                try {
                    ProcessBuilder builder = new ProcessBuilder("go", "install", MODULE)
                            .redirectErrorStream(true)
                            .redirectOutput(out.toFile());
                    // Install exactly where we will look for it.
                    builder.environment().put("GOBIN", target.getParent().toString());
                    Process go = builder.start();
                    if (!go.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                        go.destroyForcibly();
                        throw new RegtestNodeException(
                                "go install " + MODULE + " did not finish within " + INSTALL_TIMEOUT,
                                Files.readString(out, StandardCharsets.UTF_8),
                                null);
                    }
                    if (go.exitValue() != 0 || !isExecutable(target)) {
                        throw new RegtestNodeException(
                                "go install " + MODULE + " failed with exit code " + go.exitValue()
                                        + " (expected the binary at " + target + ")",
                                Files.readString(out, StandardCharsets.UTF_8),
                                null);
                    }
                    return target;
                } finally {
                    Files.deleteIfExists(out);
                }
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw new RegtestNodeException("cannot install btcd: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegtestNodeException("interrupted while installing btcd", e);
        }
    }

    private static Optional<Path> onPath(Map<String, String> env) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "btcd");
                if (isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /** {@code GOBIN} if set, else {@code $(go env GOPATH)/bin/btcd}; empty if Go is not available. */
    private static Optional<Path> goPathBin(Map<String, String> env) {
        String gobin = env.get("GOBIN");
        if (gobin != null && !gobin.isBlank()) {
            return Optional.of(Path.of(gobin, "btcd"));
        }
        try {
            Process go = new ProcessBuilder("go", "env", "GOPATH")
                    .redirectErrorStream(true)
                    .start();
            String out;
            try (var in = go.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            if (!go.waitFor(GO_ENV_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                go.destroyForcibly();
                return Optional.empty();
            }
            if (go.exitValue() != 0 || out.isEmpty()) {
                return Optional.empty();
            }
            String first = out.split(java.io.File.pathSeparator)[0];
            return Optional.of(Path.of(first, "bin", "btcd"));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static boolean isExecutable(Path p) {
        return Files.isRegularFile(p) && Files.isExecutable(p);
    }
}
