package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.blockfilter.regtest.internal.FreePorts;
import org.blockfilter.regtest.internal.TempDirs;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * nginx (the Debian package) serving a static export on a free 127.0.0.1 port, as a CDN or any
 * web server would: {@code index.json} with {@code Cache-Control: no-cache}, every other file
 * (content-addressed) as immutable. Started by the test with its own prefix, config and logs in
 * a temporary directory, in the foreground ({@code daemon off; master_process off;}), stopped by
 * {@link #close()}. Without nginx it skips, except under {@code CI=true}, where it fails. Not
 * thread-safe.
 */
final class Nginx implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final List<Path> KNOWN = List.of(Path.of("/usr/sbin/nginx"), Path.of("/usr/local/sbin/nginx"));

    private final Process process;
    private final Path prefix;
    private final int port;

    private Nginx(Process process, Path prefix, int port) {
        this.process = process;
        this.prefix = prefix;
        this.port = port;
    }

    /** nginx serving {@code root}; skips without nginx (fails under CI=true). */
    static Nginx serve(Path root) throws IOException {
        Path binary = binary().orElse(null);
        if (binary == null) {
            unavailable("no nginx binary on PATH or in /usr/sbin (apt-get install -y nginx)");
        }
        Path prefix = Files.createTempDirectory("blockfilter-nginx-");
        int port = FreePorts.pick();
        Files.createDirectories(prefix.resolve("logs"));
        String conf = """
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log warn;
                events { worker_connections 256; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    types { application/json json; application/octet-stream bin; }
                    default_type application/octet-stream;
                    server {
                        listen 127.0.0.1:%2$d;
                        root %3$s;
                        location = /index.json { add_header Cache-Control "no-cache"; }
                        location / { add_header Cache-Control "public, max-age=31536000, immutable"; }
                    }
                }
                """.formatted(prefix, port, root.toAbsolutePath());
        Path confFile = prefix.resolve("nginx.conf");
        Files.writeString(confFile, conf, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(
                        binary.toString(),
                        "-p",
                        prefix.toString(),
                        "-c",
                        confFile.toString(),
                        "-g",
                        "daemon off; master_process off;")
                .redirectErrorStream(true)
                .redirectOutput(prefix.resolve("logs/stdout.log").toFile())
                .start();
        Nginx nginx = new Nginx(p, prefix, port);
        try {
            nginx.awaitListening();
        } catch (IOException | RuntimeException e) {
            nginx.close();
            throw e;
        }
        return nginx;
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    private void awaitListening() throws IOException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (true) {
            if (!process.isAlive()) {
                String log = read(prefix.resolve("logs/stdout.log")) + read(prefix.resolve("logs/error.log"));
                unavailable("nginx exited with " + process.exitValue() + ": " + log.strip());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                if (Instant.now().isAfter(deadline)) {
                    unavailable("nginx did not listen on port " + port + " within " + START_TIMEOUT);
                }
                try {
                    process.waitFor(50, TimeUnit.MILLISECONDS); // wakes early if nginx dies
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", ie);
                }
            }
        }
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static Optional<Path> binary() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String d : path.split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "nginx"))) {
                return Optional.of(Path.of(d, "nginx"));
            }
        }
        return KNOWN.stream().filter(Files::isExecutable).findFirst();
    }

    private static void unavailable(String why) {
        Map<String, String> env = System.getenv();
        if ("true".equalsIgnoreCase(env.getOrDefault("CI", ""))) {
            Assertions.fail("nginx is required under CI=true but unavailable: " + why);
        }
        Assumptions.abort("nginx unavailable, test skipped (CI=true fails instead): " + why);
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
        TempDirs.deleteQuietly(prefix);
    }
}
