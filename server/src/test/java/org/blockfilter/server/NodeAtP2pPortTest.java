package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.server.http.P2pFixtures;
import org.blockfilter.server.p2p.P2pConfig;
import org.blockfilter.server.p2p.P2pServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --node} pointed at a Bitcoin P2P port instead of the JSON-RPC port: startup fails with
 * exit 1 and a message that says so, in printable text. Two kinds of P2P ports: one that sends
 * its {@code version} as soon as it accepts (bcoin does), and one that waits for ours and hangs
 * up on the HTTP request (Core, btcd, our own listener).
 */
class NodeAtP2pPortTest {
    private static final P2pFixtures.Fixture CHAIN = P2pFixtures.build(60);

    @TempDir
    Path dir;

    @Test
    void aP2pPortThatSpeaksFirstIsNamedAsOne() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> versionFirst(listener));
            peer.setDaemon(true);
            peer.start();
            String err = startAgainst(listener.getLocalPort());
            assertTrue(err.contains("P2P port"), err);
            assertTrue(err.contains("regtest"), "names the network whose magic it saw: " + err);
        }
    }

    @Test
    void aP2pPortThatHangsUpIsNamedAsPossiblyOne() throws Exception {
        try (P2pServer p2p = P2pServer.start(
                P2pConfig.forChain(Chain.REGTEST), CHAIN.index(), CHAIN.node(), new SimpleMeterRegistry())) {
            String err = startAgainst(p2p.port());
            assertTrue(err.contains("P2P port"), err);
        }
    }

    /** Runs the server against 127.0.0.1:port; returns its stderr, checked to be printable text. */
    private String startAgainst(int port) {
        PrintStream old = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int code;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            code = ServerMain.run(
                    "--node",
                    "http://u:p@127.0.0.1:" + port,
                    "--data-dir",
                    dir.resolve("d").toString(),
                    "--no-p2p");
        } finally {
            System.setErr(old);
        }
        String err = captured.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, err);
        for (char c : err.toCharArray()) {
            assertTrue(c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f), "unprintable character in: " + err);
        }
        return err;
    }

    /** Accepts connections and sends a version frame at once, as bcoin does; then reads until closed. */
    private static void versionFirst(ServerSocket listener) {
        while (!listener.isClosed()) {
            try (Socket s = listener.accept()) {
                Message.Version v = new Message.Version(
                        70016, 9, System.currentTimeMillis() / 1000, 0, 1, "/bcoin:2.2.0/", 0, true);
                OutputStream out = s.getOutputStream();
                out.write(MessageFrame.encode(
                        MessageFrame.magicBytes(Chain.REGTEST.magic()), v.command(), MessageCodec.encode(v)));
                out.flush();
                InputStream in = s.getInputStream();
                while (in.read() >= 0) {
                    // the HTTP request: ignored, as a P2P node would after its magic check
                }
            } catch (IOException e) {
                // the client went away
            }
        }
    }
}
