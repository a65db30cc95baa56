package org.blockfilter.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The server's demo (its embedded regtest node with a fixed demo chain; the faucet mines on demand) in a child JVM on
 * free ports, with the REST base URL read from the banner it prints. Not thread-safe; one test class drives it.
 */
final class DemoServer implements AutoCloseable {
    /** Generous: on a loaded 2-core machine the demo chain builds and indexes in well under a minute. */
    private static final Duration START = Duration.ofMinutes(4);

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final String base;
    private final HttpClient http = HttpClient.newHttpClient();

    private DemoServer(Process process, String base) {
        this.process = process;
        this.base = base;
    }

    static DemoServer start(Path stderr) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        ExampleRun.java(),
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.blockfilter.server.ServerMain",
                        "--port",
                        "0",
                        "--p2p-port",
                        "0",
                        "--demo-blocks",
                        "150",
                        "--demo-block-interval",
                        "0")
                .redirectError(stderr.toFile())
                .start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("reader failed: " + e);
                    }
                },
                "demo-server-stdout");
        reader.setDaemon(true);
        reader.start();
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + START.toNanos();
        String base = null;
        while (true) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null || !p.isAlive() && lines.isEmpty() && line.startsWith("reader failed")) {
                p.destroyForcibly();
                throw new AssertionError("the demo server did not start within " + START + "; stdout:\n"
                        + String.join("\n", seen) + "\n(stderr in " + stderr + ")");
            }
            seen.add(line);
            if (line.contains("/api/v1/status")) {
                base = line.replaceAll(".*(http://\\S+)/api/v1/status.*", "$1");
            }
            if (line.startsWith("Ctrl-C") && base != null) {
                return new DemoServer(p, base);
            }
        }
    }

    /** The REST base URL, e.g. {@code http://127.0.0.1:40123}. */
    String url() {
        return base;
    }

    /** Pays {@code amount} BTC to {@code address} from the demo's coins in a block mined at once; its txid and height. */
    JsonNode faucet(String address, String amount) throws IOException, InterruptedException {
        String body = JSON.writeValueAsString(Map.of("address", address, "amount", amount));
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/demo/faucet"))
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("faucet " + body + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the demo deletes its temporary data on the way out
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
