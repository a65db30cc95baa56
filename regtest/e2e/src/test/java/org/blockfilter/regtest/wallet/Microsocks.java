package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * microsocks (the Debian package), a SOCKS5 server nobody here wrote, on a free 127.0.0.1 port,
 * started by the test as btcd and nginx are. Its outgoing connections are bound to {@code
 * bindAddress} (its {@code -b}), so a server can tell connections that came through it from
 * direct ones. Missing: the test is skipped, and fails under {@code CI=true} ({@code .ci/run}
 * installs it).
 */
final class Microsocks implements AutoCloseable {
    private static final List<Path> KNOWN =
            List.of(Path.of("/usr/bin/microsocks"), Path.of("/usr/local/bin/microsocks"));

    private final Process process;
    private final int port;

    private Microsocks(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static Microsocks start(String bindAddress) throws IOException, InterruptedException {
        Optional<Path> binary = KNOWN.stream().filter(Files::isExecutable).findFirst();
        if (binary.isEmpty()) {
            if ("true".equalsIgnoreCase(System.getenv().getOrDefault("CI", ""))) {
                Assertions.fail("microsocks is required under CI=true but not installed (apt-get install microsocks)");
            }
            Assumptions.abort("microsocks not installed, test skipped (CI=true fails instead)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Process p = new ProcessBuilder(binary.get().toString(), "-i", "127.0.0.1", "-p", "" + port, "-b", bindAddress)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Microsocks m = new Microsocks(p, port);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return m;
            } catch (IOException e) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    m.close();
                    throw new IOException("microsocks did not listen on 127.0.0.1:" + port, e);
                }
                Thread.sleep(20); // waiting for a child process to bind
            }
        }
    }

    String url() {
        return "socks5h://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
