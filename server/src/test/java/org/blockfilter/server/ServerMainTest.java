package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void badOptionsExitTwo() {
        assertEquals(2, ServerMain.run("--port", "70000"));
        assertEquals(2, ServerMain.run("--port", "abc"));
        assertEquals(2, ServerMain.run("--rpc-cookie", "x"));
        assertEquals(2, ServerMain.run("--node", "http://u:p@127.0.0.1:1", "--embedded"));
        assertEquals(2, ServerMain.run("--undo-depth", "0"));
        assertEquals(2, ServerMain.run("--no-such-option"));
        assertEquals(2, ServerMain.run("--p2p-port", "70000"));
        assertEquals(2, ServerMain.run("--p2p-port", "0", "--no-p2p"));
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
