package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.server.rpc.Http11OnlyNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerMainTest {
    @TempDir
    Path dir;

    @Test
    void helpExitsZero() {
        assertEquals(0, ServerMain.run("--help"));
    }

    @Test
    void versionPrintsTheProjectVersion() {
        java.io.StringWriter out = new java.io.StringWriter();
        int code = ServerMain.run(
                new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(new java.io.StringWriter(), true),
                "--version");
        assertEquals(0, code);
        // The version the build filtered into version.properties, e.g. "blockfilter-server 0.1.0-SNAPSHOT".
        assertEquals(true, out.toString().strip().matches("blockfilter-server \\d+\\.\\d+\\.\\d+\\S*"), out.toString());
    }

    @Test
    void badOptionsExitTwo() {
        assertEquals(2, ServerMain.run("--port", "70000"));
        assertEquals(2, ServerMain.run("--port", "abc"));
        assertEquals(2, ServerMain.run("--rpc-cookie", "x"));
        assertEquals(2, ServerMain.run("--node", "http://u:p@127.0.0.1:1", "--embedded"));
        assertEquals(2, ServerMain.run("--undo-depth", "0"));
        assertEquals(2, ServerMain.run("--no-such-option"));
        assertEquals(2, ServerMain.run("--p2p-port", "70000"));
        assertEquals(2, ServerMain.run("--p2p-port", "0", "--no-p2p"));
        assertEquals(2, ServerMain.run("--demo-block-interval", "-1"));
        assertEquals(2, ServerMain.run("--demo-start", "yesterday"));
    }

    @Test
    void unknownHttpCompressionIsABadOptionThatNamesTheValues() {
        java.io.StringWriter err = new java.io.StringWriter();
        int code = ServerMain.run(
                new java.io.PrintWriter(new java.io.StringWriter(), true),
                new java.io.PrintWriter(err, true),
                "--http-compression",
                "br");
        assertEquals(2, code);
        assertEquals(
                "blockfilter-server: --http-compression must be gzip or none: br (see --help)",
                err.toString().strip());
    }

    @Test
    void httpCompressionNoneIsAccepted() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        // Past option validation (2) to the node (1): the option itself is fine.
        assertEquals(
                1,
                ServerMain.run(
                        "--http-compression",
                        "none",
                        "--node",
                        "http://u:p@127.0.0.1:" + closedPort,
                        "--data-dir",
                        dir.resolve("d").toString()));
    }

    @Test
    void unreachableNodeFailsStartupWithExitOne() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        assertEquals(
                1,
                ServerMain.run(
                        "--node",
                        "http://u:p@127.0.0.1:" + closedPort,
                        "--data-dir",
                        dir.resolve("d").toString(),
                        "--exit-when-synced"));
    }

    /** Runs the server against {@code node} in batch mode; returns the exit code. */
    private int indexOnce(Http11OnlyNode node) {
        return ServerMain.run(
                "--node", node.url().toString(), "--data-dir", dir.resolve("d").toString(), "--exit-when-synced");
    }

    @Test
    void indexesFromAnHttp11OnlyNode() throws IOException {
        // The JDK client used to offer an h2c upgrade, which such a node answers by hanging up:
        // "getblockchaininfo: cannot reach node ... HTTP/1.1 header parser received no bytes".
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(5);
        try (Http11OnlyNode node = new Http11OnlyNode((m, p) -> Http11OnlyNode.chainAnswer(chain, m, p))) {
            assertEquals(0, indexOnce(node));
            assertEquals(0, node.upgradesRefused());
        }
    }

    @Test
    void chainNameOfTheWrongTypeFailsStartupWithExitOne() throws IOException {
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(2);
        try (Http11OnlyNode node = new Http11OnlyNode((m, p) -> m.equals("getblockchaininfo")
                ? Http11OnlyNode.Answer.result("{\"chain\":12345}")
                : Http11OnlyNode.chainAnswer(chain, m, p))) {
            assertEquals(1, indexOnce(node));
        }
    }

    @Test
    void aNodeWhoseGenesisIsNotTheOneOfTheNetworkItNamesFailsStartupWithExitOne() throws IOException {
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(2);
        try (Http11OnlyNode node = new Http11OnlyNode((m, p) -> m.equals("getblockchaininfo")
                ? Http11OnlyNode.Answer.result("{\"chain\":\"main\"}")
                : Http11OnlyNode.chainAnswer(chain, m, p))) {
            assertEquals(1, indexOnce(node));
        }
    }

    @Test
    void nodeUrlWithoutCredentialsOrCookieFailsStartup() {
        assertEquals(1, ServerMain.run("--node", "http://127.0.0.1:18443", "--data-dir", dir.toString()));
    }

    @Test
    void unreadableCookieFileFailsStartup() {
        assertEquals(
                1,
                ServerMain.run(
                        "--node",
                        "http://127.0.0.1:18443",
                        "--rpc-cookie",
                        dir.resolve("missing").toString(),
                        "--data-dir",
                        dir.toString()));
        assertEquals(false, Files.exists(dir.resolve("missing")));
    }
}
