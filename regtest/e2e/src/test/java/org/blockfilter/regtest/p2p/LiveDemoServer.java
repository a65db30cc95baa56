package org.blockfilter.regtest.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.blockfilter.regtest.server.ChildServer;

/**
 * The server's default command (the live demo: a chain ending now, a block every 10 s) in a child
 * JVM on free ports, with its REST base URL and P2P port read from the banner it prints, and the
 * REST calls light-client tests make of it. Not thread-safe; one test drives it.
 */
final class LiveDemoServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ChildServer child;
    private final String base;
    private final int p2pPort;
    private final HttpClient http = HttpClient.newHttpClient();

    private LiveDemoServer(ChildServer child) {
        this.child = child;
        this.base = line("status").replaceAll(".*(http://\\S+)/api/v1/status.*", "$1");
        this.p2pPort = Integer.parseInt(line("BIP 157 P2P").replaceAll(".*127\\.0\\.0\\.1:(\\d+).*", "$1"));
    }

    static LiveDemoServer start() throws IOException, InterruptedException {
        ChildServer child = ChildServer.startMain("--port", "0", "--p2p-port", "0");
        // Generous: the 300-block demo builds and indexes in about a minute on the loaded 2-core machine.
        assertTrue(child.awaitLine(l -> l.startsWith("Ctrl-C"), Duration.ofMinutes(4)), child.tail());
        return new LiveDemoServer(child);
    }

    int p2pPort() {
        return p2pPort;
    }

    int indexedHeight() throws IOException, InterruptedException {
        return get("/api/v1/status").path("indexedHeight").asInt();
    }

    /** A JSON GET that must answer 200. */
    JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)), path);
    }

    /** {@code POST /api/v1/demo/faucet}, which must answer 200 (txid, height). */
    JsonNode faucet(String address, String amount) throws IOException, InterruptedException {
        String body = JSON.writeValueAsString(java.util.Map.of("address", address, "amount", amount));
        return send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/demo/faucet"))
                        .POST(HttpRequest.BodyPublishers.ofString(body)),
                "faucet " + body);
    }

    private JsonNode send(HttpRequest.Builder request, String what) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), what + ": " + r.body());
        return JSON.readTree(r.body());
    }

    private String line(String label) {
        return child.lines().stream()
                .filter(l -> l.contains(label))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + label + " line in the banner:\n" + child.tail()));
    }

    @Override
    public void close() {
        child.close();
    }
}
