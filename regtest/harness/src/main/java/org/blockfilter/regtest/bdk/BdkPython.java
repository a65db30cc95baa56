package org.blockfilter.regtest.bdk;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.blockfilter.regtest.RegtestNodeException;

/**
 * A Python interpreter with {@code bdkpython} installed, installing it when missing, the way
 * {@link org.blockfilter.regtest.btcd.BtcdBinary} installs btcd. Lookup order: {@code $BDK_PYTHON}
 * (if set, an interpreter that already has bdkpython {@value #VERSION}: no install, no fallback),
 * then a venv at the given directory (normally {@link #defaultVenv()}), created with
 * {@code python3 -m venv} and filled with {@code pip install bdkpython==}{@value #VERSION}. The
 * install is serialized across processes with a file lock beside the venv. Immutable; thread-safe.
 */
public final class BdkPython {
    /** The bdkpython release we test against (BDK 1.x wallet, Kyoto compact-filter client). */
    public static final String VERSION = "3.1.1";

    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
    private static final String MARKER = "blockfilter-bdkpython-" + VERSION;

    private final Path python;

    private BdkPython(Path python) {
        this.python = python;
    }

    /**
     * The default venv: {@code target/bdk-venv} of the repository root (the nearest directory up
     * from the working directory that holds {@code mvnw}), so the harness and end-to-end modules
     * share one install; {@code target/bdk-venv} of the working directory if there is no such root.
     */
    public static Path defaultVenv() {
        Path here = Path.of("").toAbsolutePath();
        for (Path d = here; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("mvnw")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d.resolve("target").resolve("bdk-venv");
            }
        }
        return here.resolve("target").resolve("bdk-venv");
    }

    /**
     * The interpreter, installing bdkpython into {@code venv} first if needed.
     *
     * @throws RegtestNodeException if {@code BDK_PYTHON} is not a working interpreter with bdkpython, or
     *                       python3/venv/pip are missing or the install fails; the message says which
     */
    public static BdkPython locateOrInstall(Path venv, Map<String, String> env) {
        String explicit = env.get("BDK_PYTHON");
        if (explicit != null && !explicit.isBlank()) {
            BdkPython p = new BdkPython(Path.of(explicit));
            p.checkImport("BDK_PYTHON=" + explicit);
            return p;
        }
        Path python = venv.resolve("bin").resolve("python");
        if (Files.isRegularFile(venv.resolve(MARKER)) && Files.isExecutable(python)) {
            return new BdkPython(python);
        }
        return install(venv, python);
    }

    /** The interpreter's path. */
    public Path python() {
        return python;
    }

    /** What a finished script printed. */
    public record Result(int exitCode, String stdout, String stderr) {}

    /**
     * Runs a Python script with {@code args}; never throws for a non-zero exit (the caller judges
     * the {@link Result}).
     *
     * @throws RegtestNodeException if the script does not finish within {@code timeout} (it is killed)
     */
    public Result run(Path script, List<String> args, Duration timeout) {
        List<String> cmd = new ArrayList<>();
        cmd.add(python.toString());
        cmd.add("-u");
        cmd.add(script.toString());
        cmd.addAll(args);
        return exec(cmd, timeout, "python " + script.getFileName());
    }

    private void checkImport(String what) {
        Result r = exec(
                List.of(
                        python.toString(),
                        "-c",
                        "import importlib.metadata as m, bdkpython; print(m.version('bdkpython'))"),
                Duration.ofSeconds(60),
                what);
        if (r.exitCode() != 0) {
            throw new RegtestNodeException(what + " cannot import bdkpython", r.stderr(), null);
        }
        if (!r.stdout().strip().equals(VERSION)) {
            throw new RegtestNodeException(
                    what + " has bdkpython " + r.stdout().strip() + ", these tests need " + VERSION, null);
        }
    }

    private static BdkPython install(Path venv, Path python) {
        Instant deadline = Instant.now().plus(INSTALL_TIMEOUT);
        try {
            Files.createDirectories(venv.getParent());
            Path lockFile = venv.resolveSibling(venv.getFileName() + ".lock");
            try (FileChannel channel =
                    FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = channel.tryLock();
                while (lock == null) {
                    if (Instant.now().isAfter(deadline)) {
                        throw new RegtestNodeException(
                                "timed out waiting for another bdkpython install (" + lockFile + ")", null);
                    }
                    // Another process is installing: wait for its lock, then use its result.
                    TimeUnit.MILLISECONDS.sleep(500);
                    lock = channel.tryLock();
                }
                try {
                    if (Files.isRegularFile(venv.resolve(MARKER)) && Files.isExecutable(python)) {
                        return new BdkPython(python);
                    }
                    System.err.println("[regtest] installing bdkpython " + VERSION + " into " + venv
                            + ": python3 -m venv, pip install (under a minute with a warm pip cache)");
                    Result venvResult = exec(
                            List.of("python3", "-m", "venv", "--clear", venv.toString()),
                            Duration.ofMinutes(2),
                            "python3 -m venv");
                    if (venvResult.exitCode() != 0 || !Files.isExecutable(python)) {
                        throw new RegtestNodeException(
                                "python3 -m venv " + venv + " failed with exit code " + venvResult.exitCode()
                                        + " (is the python3-venv package installed?)",
                                venvResult.stdout() + venvResult.stderr(),
                                null);
                    }
                    Result pip = exec(
                            List.of(
                                    python.toString(),
                                    "-m",
                                    "pip",
                                    "install",
                                    "--disable-pip-version-check",
                                    "--quiet",
                                    "bdkpython==" + VERSION),
                            Duration.between(Instant.now(), deadline),
                            "pip install bdkpython==" + VERSION);
                    if (pip.exitCode() != 0) {
                        throw new RegtestNodeException(
                                "pip install bdkpython==" + VERSION + " failed with exit code " + pip.exitCode(),
                                pip.stdout() + pip.stderr(),
                                null);
                    }
                    BdkPython p = new BdkPython(python);
                    p.checkImport("the venv " + venv);
                    Files.writeString(venv.resolve(MARKER), VERSION + "\n");
                    return p;
                } finally {
                    lock.release();
                }
            }
        } catch (IOException e) {
            throw new RegtestNodeException("cannot install bdkpython into " + venv + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegtestNodeException("interrupted while installing bdkpython", e);
        }
    }

    private static Result exec(List<String> cmd, Duration timeout, String what) {
        try {
            Path out = Files.createTempFile("blockfilter-bdk", ".out");
            Path err = Files.createTempFile("blockfilter-bdk", ".err");
            try {
                Process p = new ProcessBuilder(cmd)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
                if (!p.waitFor(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                    throw new RegtestNodeException(
                            what + " did not finish within " + timeout,
                            Files.readString(out, StandardCharsets.UTF_8)
                                    + Files.readString(err, StandardCharsets.UTF_8),
                            null);
                }
                return new Result(
                        p.exitValue(),
                        Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            // python3 itself missing ends here (error=2, No such file or directory).
            throw new RegtestNodeException(what + ": cannot run " + cmd.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegtestNodeException("interrupted while running " + what, e);
        }
    }
}
