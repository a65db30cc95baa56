package org.blockfilter.wallet.source.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.blockfilter.wallet.internal.WalletHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SOCKS5 client and the HTTP bridge against a scripted proxy. Names end in {@code .invalid}
 * (RFC 2606: they resolve nowhere), so a request that arrives proves the wallet handed the name
 * to the proxy instead of looking it up.
 */
class SocksProxyTest {
    private HttpServer origin;

    @BeforeEach
    void startOrigin() throws Exception {
        origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        origin.createContext("/", ex -> {
            byte[] body = ("seen " + ex.getRequestURI().getPath() + " host "
                            + ex.getRequestHeaders().getFirst("Host"))
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        origin.start();
    }

    @AfterEach
    void stopOrigin() {
        origin.stop(0);
    }

    @Test
    void parsesSocks5hAndRefusesWhatWouldLeakOrIsNotAProxy() {
        SocksProxy p = SocksProxy.parse("socks5h://127.0.0.1:9050");
        assertEquals("127.0.0.1", p.host());
        assertEquals(9050, p.port());
        assertEquals(
                "u",
                SocksProxy.parse("socks5h://u:pw@[::1]:1080")
                        .credentials()
                        .orElseThrow()
                        .username());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SocksProxy.parse("socks5://127.0.0.1:9050"))
                .getMessage()
                .contains("socks5h://"));
        assertThrows(IllegalArgumentException.class, () -> SocksProxy.parse("http://127.0.0.1:8080"));
        assertThrows(IllegalArgumentException.class, () -> SocksProxy.parse("socks5h://127.0.0.1"));
    }

    @Test
    void aHostNameGoesToTheProxyUnresolved() throws Exception {
        try (ScriptedSocksProxy proxy =
                new ScriptedSocksProxy(origin.getAddress().getPort(), false)) {
            Dialer d = SocksProxy.parse("socks5h://127.0.0.1:" + proxy.port()).dialerForSource();
            try (Socket s = d.connect("filters.invalid", 8157, 5_000)) {
                s.getOutputStream().write("GET /x HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertTrue(new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("seen /x"));
            }
            ScriptedSocksProxy.Request r = proxy.requests.get(0);
            assertEquals(3, r.addressType(), "SOCKS5 address type 3: a domain name");
            assertEquals("filters.invalid:8157", r.target());
            assertEquals(List.of(0), r.methods(), "no credentials without isolation");
        }
    }

    @Test
    void httpThroughTheBridgeNeverResolvesTheSourcesName() throws Exception {
        try (ScriptedSocksProxy proxy =
                        new ScriptedSocksProxy(origin.getAddress().getPort(), false);
                HttpProxyBridge bridge = HttpProxyBridge.start(
                        SocksProxy.parse("socks5h://127.0.0.1:" + proxy.port()).dialerForSource(), 5_000)) {
            HttpClient http = WalletHttp.newClient(Duration.ofSeconds(5), null, bridge);
            HttpResponse<String> answer = http.send(
                    WalletHttp.request(URI.create("http://server.invalid:8157/api/v1/status"), Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode());
            assertTrue(answer.body().contains("seen /api/v1/status host server.invalid:8157"), answer.body());
            assertEquals("server.invalid:8157", proxy.requests.get(0).target());
        }
    }

    @Test
    void isolationGivesEachSourceItsOwnUsernameAndKeepsItForTheSourcesConnections() throws Exception {
        try (ScriptedSocksProxy proxy =
                new ScriptedSocksProxy(origin.getAddress().getPort(), true)) {
            SocksProxy p =
                    SocksProxy.parse("socks5h://127.0.0.1:" + proxy.port()).withIsolation(true);
            Dialer a = p.dialerForSource();
            Dialer b = p.dialerForSource();
            a.connect("a.invalid", 1, 5_000).close();
            a.connect("a.invalid", 1, 5_000).close();
            b.connect("b.invalid", 1, 5_000).close();
            List<ScriptedSocksProxy.Request> r = proxy.requests;
            assertEquals(List.of(0, 2), r.get(0).methods(), "offers no-auth too, for proxies without passwords");
            assertEquals(r.get(0).username(), r.get(1).username(), "one source, one circuit");
            assertNotEquals(r.get(0).username(), r.get(2).username(), "two sources, two circuits");
        }
        try (ScriptedSocksProxy plain =
                new ScriptedSocksProxy(origin.getAddress().getPort(), true)) {
            SocksProxy.parse("socks5h://127.0.0.1:" + plain.port())
                    .dialerForSource()
                    .connect("c.invalid", 1, 5_000)
                    .close();
            assertNull(plain.requests.get(0).username());
        }
    }
}
