package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's banner, as a user's terminal shows it: stdout holds the URLs and nothing else (the
 * logs, Jetty's and Javalin's included, go to stderr), and it gives the embedded node's JSON-RPC
 * URL with its user and password, so {@code curl} or {@code bitcoin-cli} can use it as printed.
 */
class ServerBannerTest {
    @TempDir
    Path dir;

    @Test
    void stdoutHoldsOnlyTheBannerAndItGivesTheNodesFullRpcUrl() throws Exception {
        Path classes = Path.of(ServerMain.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlogback.configurationFile=" + classes.resolve("logback.xml"),
                "-cp",
                System.getProperty("java.class.path"),
                ServerMain.class.getName(),
                "--demo-blocks",
                "1",
                "--demo-block-interval",
                "0",
                "--port",
                "0",
                "--p2p-port",
                "0");
        Path err = dir.resolve("stderr");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        List<String> out = new ArrayList<>();
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                out.add(line);
                if (line.startsWith("Ctrl-C")) {
                    break;
                }
            }
        } finally {
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        String stdout = String.join("\n", out);
        assertEquals("Ctrl-C to stop.", out.get(out.size() - 1), stdout + "\nstderr:\n" + Files.readString(err));
        assertTrue(out.get(0).startsWith("blockfilter-server: indexing "), stdout);
        for (String line : out.subList(1, out.size() - 1)) {
            assertTrue(line.startsWith("  "), "only banner lines on stdout, not: " + line);
        }
        assertTrue(
                out.stream()
                        .anyMatch(
                                l -> l.matches("  node RPC +http://blockfilter:[0-9a-f]{32}@127\\.0\\.0\\.1:\\d+ .*")),
                "the node's RPC URL with its credentials:\n" + stdout);
        assertTrue(out.stream().anyMatch(l -> l.contains("/api/v1/demo/faucet")), stdout);
        String logs = Files.readString(err);
        assertTrue(logs.contains("event=start "), "the logs went to stderr:\n" + logs);
    }
}
