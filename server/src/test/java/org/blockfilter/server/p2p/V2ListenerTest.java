package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.filters.p2p.v2.EllSwift;
import org.blockfilter.filters.p2p.v2.V2Cipher;
import org.blockfilter.filters.p2p.v2.V2Transport;
import org.blockfilter.server.http.P2pFixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * BIP 324 on the listener: a v2 client is served the same filters as a v1 client on the same
 * listener (told apart by the first bytes), the sessions metric counts each transport, and
 * broken v2 handshakes (garbage over the limit, a wrong terminator, a tampered packet, a
 * truncated key) each end in a disconnect without ban points while the listener keeps serving.
 */
class V2ListenerTest {
    private static final P2pFixtures.Fixture CHAIN = P2pFixtures.build(120);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String HOSTILE = "127.0.0.2";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private P2pServer server;

    @BeforeEach
    void start() throws IOException {
        server = P2pServer.start(
                P2pConfig.forChain(Chain.REGTEST).withTipPollInterval(Duration.ofMillis(50)),
                CHAIN.index(),
                CHAIN.node(),
                registry);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Socket socket(String from) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    private V2Transport v2(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        return V2Transport.initiate(in::readFully, s.getOutputStream(), TestPeer.MAGIC, RANDOM);
    }

    /** A hand-rolled initiator's key exchange: our key sent, the listener's read, the cipher derived. */
    private static V2Cipher keyExchange(Socket s) throws IOException {
        EllSwift.KeyPair key = EllSwift.create(RANDOM);
        s.getOutputStream().write(key.encoded());
        s.getOutputStream().flush();
        byte[] theirs = new byte[64];
        new DataInputStream(s.getInputStream()).readFully(theirs);
        return new V2Cipher(EllSwift.sharedSecret(key.privateKey(), theirs, key.encoded(), true), TestPeer.MAGIC, true);
    }

    private static void send(V2Transport t, OutputStream out, Message m) throws IOException {
        t.write(m.command(), MessageCodec.encode(m));
        out.flush();
    }

    private static Message expect(V2Transport t, String command) throws IOException {
        while (true) {
            V2Transport.Received r = t.read();
            if (r.command().equals(command)) {
                return MessageCodec.decode(r.command(), r.payload());
            }
        }
    }

    private double counter(String name, String label, String value) {
        var c = registry.find(name).tag(label, value).counter();
        return c == null ? 0 : c.count();
    }

    private static void await(BooleanSupplier condition, String what) {
        // The server's reader thread records a disconnect after our socket saw it: poll with a deadline.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
    }

    private static boolean closedWithin(Socket s, Duration d) throws IOException {
        s.setSoTimeout((int) d.toMillis());
        InputStream in = s.getInputStream();
        byte[] buf = new byte[8192];
        long deadline = System.nanoTime() + d.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
        return false;
    }

    @Test
    void aV2ClientIsServedTheSameFiltersAsAV1ClientAndEachSessionIsCounted() throws IOException {
        byte[] v1Filter;
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetCFilters(0, 7, CHAIN.active().get(7).blockHash()));
            v1Filter = ((Message.CFilter) p.expect("cfilter")).filter();
        }
        try (Socket s = socket("127.0.0.1")) {
            V2Transport t = v2(s);
            send(t, s.getOutputStream(), TestPeer.version());
            Message.Version v = (Message.Version) expect(t, "version");
            assertTrue((v.services() & P2pConfig.NODE_P2P_V2) != 0, "NODE_P2P_V2 advertised");
            expect(t, "verack");
            send(t, s.getOutputStream(), new Message.Verack());
            send(
                    t,
                    s.getOutputStream(),
                    new Message.GetCFilters(0, 7, CHAIN.active().get(7).blockHash()));
            Message.CFilter f = (Message.CFilter) expect(t, "cfilter");
            assertArrayEquals(v1Filter, f.filter());
            send(t, s.getOutputStream(), new Message.Ping(42));
            assertEquals(42, ((Message.Pong) expect(t, "pong")).nonce());
        }
        assertEquals(1, counter("blockfilter_p2p_sessions", "transport", "v2"));
        assertEquals(1, counter("blockfilter_p2p_sessions", "transport", "v1"));
    }

    @Test
    void garbageOverTheLimitIsADisconnectWithoutBan() throws IOException {
        try (Socket s = socket(HOSTILE)) {
            OutputStream out = s.getOutputStream();
            out.write(EllSwift.create(RANDOM).encoded());
            out.write(new byte[V2Transport.MAX_GARBAGE + V2Cipher.TERMINATOR_LENGTH + 1]);
            out.flush();
            assertTrue(closedWithin(s, Duration.ofSeconds(10)));
        }
        assertBrokenHandshakeCostsNoBan("v2_no_terminator");
    }

    @Test
    void aWrongTerminatorIsADisconnectWithoutBan() throws IOException {
        try (Socket s = socket(HOSTILE)) {
            OutputStream out = s.getOutputStream();
            V2Cipher c = keyExchange(s);
            byte[] wrong = c.sendTerminator();
            wrong[0] ^= 1;
            ByteArrayOutputStream w = new ByteArrayOutputStream();
            w.write(wrong);
            w.write(c.encrypt(new byte[0], new byte[0], false));
            w.write(new byte[V2Transport.MAX_GARBAGE]); // the responder keeps looking for the terminator, in vain
            out.write(w.toByteArray());
            out.flush();
            assertTrue(closedWithin(s, Duration.ofSeconds(10)));
        }
        assertBrokenHandshakeCostsNoBan("v2_no_terminator");
    }

    @Test
    void aTamperedPacketIsADisconnectWithoutBan() throws IOException {
        try (Socket s = socket(HOSTILE)) {
            OutputStream out = s.getOutputStream();
            V2Cipher c = keyExchange(s);
            byte[] version = c.encrypt(new byte[0], new byte[0], false);
            version[5] ^= 0x40; // inside the AEAD ciphertext: the Poly1305 tag no longer matches
            out.write(c.sendTerminator());
            out.write(version);
            out.flush();
            assertTrue(closedWithin(s, Duration.ofSeconds(10)));
        }
        assertBrokenHandshakeCostsNoBan("v2_decrypt_failed");
    }

    @Test
    void aTruncatedKeyIsADisconnectWithoutBan() throws IOException {
        try (Socket s = socket(HOSTILE)) {
            s.getOutputStream()
                    .write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
            s.getOutputStream().flush();
            s.shutdownOutput();
            assertTrue(closedWithin(s, Duration.ofSeconds(10)));
        }
        assertBrokenHandshakeCostsNoBan("v2_truncated_key");
    }

    private void assertBrokenHandshakeCostsNoBan(String reason) throws IOException {
        await(() -> counter("blockfilter_p2p_disconnects", "reason", reason) == 1, reason + " disconnect");
        assertEquals(1, counter("blockfilter_p2p_misbehaviour", "reason", reason));
        assertFalse(server.isBanned(InetAddress.getByName(HOSTILE)), "no ban for a broken v2 handshake");
        assertEquals(0, counter("blockfilter_p2p_sessions", "transport", "v2"));
        // The same address is served again, over v2, and the listener keeps serving.
        try (Socket s = socket(HOSTILE)) {
            V2Transport t = v2(s);
            send(t, s.getOutputStream(), TestPeer.version());
            expect(t, "verack");
            send(t, s.getOutputStream(), new Message.Verack());
            send(
                    t,
                    s.getOutputStream(),
                    new Message.GetCFilters(0, 3, CHAIN.active().get(3).blockHash()));
            assertEquals(CHAIN.active().get(3).blockHash(), ((Message.CFilter) expect(t, "cfilter")).blockHash());
        }
        assertEquals(0, server.payloadBufferBytes());
    }
}
