package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bitcoinj.base.Address;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wallet's {@code --proxy} against microsocks: one sync from a REST server, a static export
 * and a BIP 157 peer, all named {@code localhost} (resolved by the proxy), with {@code
 * --proxy-isolate}. Each source sits behind a relay that records where every connection came
 * from; microsocks binds its outgoing connections to 127.0.0.7, so a connection from anywhere else
 * bypassed the proxy. Every connection of every source must come from 127.0.0.7.
 */
class ProxyEndToEndTest {
    private static final String PROXY_SOURCE = "127.0.0.7";

    @TempDir
    Path dir;

    /** A relay that records the address of each client it accepts. */
    private static final class RecordingRelay extends LoopbackRelay {
        final List<String> clients = new CopyOnWriteArrayList<>();

        RecordingRelay(int port) throws IOException {
            super(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "recording-relay");
            start();
        }

        @Override
        protected void toTarget(Socket client, Socket upstream) throws IOException {
            clients.add(client.getInetAddress().getHostAddress());
            client.getInputStream().transferTo(upstream.getOutputStream());
        }

        @Override
        protected void toClient(Socket upstream, Socket client) throws IOException {
            upstream.getInputStream().transferTo(client.getOutputStream());
        }
    }

    @Test
    void everySourceIsReachedThroughTheProxyAndNoConnectionBypassesIt() throws Exception {
        Files.writeString(dir.resolve("pw"), "pw\n");
        LightWallet w =
                WalletFixture.newWallet(dir.resolve("w.json"), "pw".toCharArray(), EnumSet.of(AddressKind.P2WPKH));
        Address mine = WalletFixture.receiving(w, AddressKind.P2WPKH, 0);
        try (EmbeddedNode node = EmbeddedNode.start()) {
            node.mineTo(30, mine);
            try (ServerOnNode server = ServerOnNode.withP2p(node);
                    Microsocks proxy = Microsocks.start(PROXY_SOURCE)) {
                int p2p = server.p2pPort();
                Path export = dir.resolve("export");
                assertEquals(0, server.export(node, export, 1));
                HttpServer files = serve(export);
                try (RecordingRelay rest = new RecordingRelay(server.baseUri().getPort());
                        RecordingRelay exported =
                                new RecordingRelay(files.getAddress().getPort());
                        RecordingRelay peer = new RecordingRelay(p2p)) {
                    InProcessCli.Run sync = InProcessCli.run(WalletFixture.cli(
                            dir,
                            "sync",
                            "--quiet",
                            "--server",
                            "http://localhost:" + rest.address().getPort(),
                            "--export",
                            "http://localhost:" + exported.address().getPort() + "/",
                            "--peer",
                            "localhost:" + peer.address().getPort(),
                            "--proxy",
                            proxy.url(),
                            "--proxy-isolate"));
                    assertEquals(0, sync.code(), sync.out() + sync.err());
                    for (RecordingRelay r : List.of(rest, exported, peer)) {
                        assertFalse(r.clients.isEmpty(), "every source was used");
                        assertTrue(
                                r.clients.stream().allMatch(PROXY_SOURCE::equals),
                                "every connection came through the proxy: " + r.clients);
                    }
                    InProcessCli.Run balance = InProcessCli.run(WalletFixture.cli(dir, "balance"));
                    // 30 coinbases to the wallet, none mature yet: the sync found them all.
                    assertEquals(
                            "1500",
                            new com.fasterxml.jackson.databind.ObjectMapper()
                                    .readTree(balance.out())
                                    .get("immature")
                                    .asText(),
                            balance.out());
                } finally {
                    files.stop(0);
                }
            }
        }
    }

    /** The export's files over HTTP (the JDK's server; an absolute-form request target is served by its path). */
    private static HttpServer serve(Path root) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", ex -> {
            Path file = root.resolve(ex.getRequestURI().getPath().substring(1)).normalize();
            if (!file.startsWith(root) || !Files.isRegularFile(file)) {
                ex.sendResponseHeaders(404, -1);
            } else {
                byte[] body;
                try (InputStream in = Files.newInputStream(file)) {
                    body = in.readAllBytes();
                }
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        http.start();
        return http;
    }
}
