package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.server.http.P2pFixtures;
import org.blockfilter.server.p2p.internal.PeerSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile peers against the P2P listener: oversized lengths, bad magic, bad checksums,
 * malformed payloads, floods, random bytes and mutated valid messages, announced payloads that
 * never arrive, too many connections and silent peers. The server never crashes, never holds
 * more payload buffer than the bytes actually received allow, bans the peer (its address, here
 * 127.0.0.2 or 127.0.0.3) and keeps serving an honest peer from 127.0.0.1.
 */
class HostilePeerTest {
    private static final P2pFixtures.Fixture CHAIN = P2pFixtures.build(300);
    private static final String HOSTILE = "127.0.0.2";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private P2pServer server;

    private P2pServer start(P2pConfig config) throws IOException {
        server = P2pServer.start(config, CHAIN.index(), CHAIN.node(), registry);
        return server;
    }

    private static P2pConfig config() {
        // Only 127.0.0.1 is local here, so the hostile 127.0.0.2 and 127.0.0.3 are banned like remote peers.
        return P2pConfig.forChain(Chain.REGTEST)
                .withTipPollInterval(Duration.ofMillis(50))
                .withSlots(P2pConfig.Slots.DEFAULT.withLocalOnly(NetRange.parseAll("127.0.0.1/32")));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static byte[] header(String command, long length, byte[] checksum) {
        byte[] h = PeerSession.frame(TestPeer.MAGIC, command, new byte[0]);
        h[16] = (byte) length;
        h[17] = (byte) (length >>> 8);
        h[18] = (byte) (length >>> 16);
        h[19] = (byte) (length >>> 24);
        System.arraycopy(checksum, 0, h, 20, 4);
        return h;
    }

    private static InetAddress addr(String a) throws IOException {
        return InetAddress.getByName(a);
    }

    /** The honest peer still gets its filters. */
    private void assertStillServes() {
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetCFilters(0, 10, CHAIN.active().get(12).blockHash()));
            for (int h = 10; h <= 12; h++) {
                assertEquals(CHAIN.active().get(h).blockHash(), ((Message.CFilter) p.expect("cfilter")).blockHash());
            }
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // polling a gauge, not ordering threads
        }
    }

    @Test
    void aLengthAboveFourMillionBytesIsBannedBeforeAnyPayloadIsRead() throws IOException {
        start(config());
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.raw(header("block", 4_000_001, new byte[4]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
        assertEquals(0, server.payloadBufferBytes());
        try (TestPeer again = TestPeer.connect(server, HOSTILE)) {
            assertTrue(again.closedWithin(Duration.ofSeconds(10)), "a banned address is refused on accept");
        }
        assertTrue(registry.scrape().contains("blockfilter_p2p_misbehaviour_total{reason=\"oversized\"} 1.0"));
        assertTrue(registry.scrape().contains("blockfilter_p2p_refused_connections_total{reason=\"banned\"} 1.0"));
        assertStillServes();
    }

    @Test
    void aLoopbackPeerIsDisconnectedButNeverBanned() throws IOException {
        // Behind Tor or a reverse proxy every peer connects from loopback: a ban would lock them all out.
        start(P2pConfig.forChain(Chain.REGTEST));
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.raw(header("block", 4_000_001, new byte[4]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertFalse(server.isBanned(addr(HOSTILE)));
        assertTrue(registry.scrape().contains("blockfilter_p2p_misbehaviour_total{reason=\"oversized\"} 1.0"));
        try (TestPeer again = TestPeer.handshake(server, HOSTILE)) {
            again.send(new Message.Ping(7));
            assertEquals(new Message.Pong(7), again.expect("pong"), "the same address is served again at once");
        }
    }

    @Test
    void aWhitelistedRangeIsNeverBannedEither() throws IOException {
        start(config().withSlots(
                        P2pConfig.Slots.DEFAULT.withLocalOnly(List.of()).withLocal(NetRange.parseAll("127.0.0.0/30"))));
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.raw(header("verack", 1, new byte[4]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertFalse(server.isBanned(addr(HOSTILE)), "127.0.0.2 is in 127.0.0.0/30");
        try (TestPeer p = TestPeer.connect(server, "127.0.0.4")) {
            p.raw(header("verack", 1, new byte[4]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr("127.0.0.4")), "127.0.0.4 is outside it");
    }

    @Test
    void perCommandCapsApplyToo() throws IOException {
        start(config());
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.raw(header("verack", 1, new byte[4]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
    }

    @Test
    void aWrongMagicOrAGarbledCommandIsBanned() throws IOException {
        start(config());
        // A first frame with another magic is a BIP 324 attempt (V2ListenerTest); after the
        // handshake a wrong magic breaks the v1 framing.
        byte[] mainnet = {(byte) 0xf9, (byte) 0xbe, (byte) 0xb4, (byte) 0xd9};
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.send(TestPeer.version());
            p.expect("version");
            p.expect("verack");
            p.raw(PeerSession.frame(mainnet, "ping", new byte[8]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
        try (TestPeer p = TestPeer.connect(server, "127.0.0.3")) {
            byte[] f = PeerSession.frame(TestPeer.MAGIC, "ping", new byte[8]);
            f[6] = 0x01; // control character inside the command
            p.raw(f);
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr("127.0.0.3")));
        assertStillServes();
    }

    @Test
    void withV2OffAWrongMagicInTheFirstFrameIsBanned() throws IOException {
        start(config().withServices(config().services() & ~P2pConfig.NODE_P2P_V2));
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.raw(PeerSession.frame(
                    new byte[] {(byte) 0xf9, (byte) 0xbe, (byte) 0xb4, (byte) 0xd9}, "version", new byte[0]));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
        try (TestPeer p = TestPeer.handshake(server)) {
            assertEquals(0, p.peerVersion.services() & P2pConfig.NODE_P2P_V2, "NODE_P2P_V2 not advertised");
        }
    }

    @Test
    void badChecksumsCostTenPointsEachAndTheTenthBans() throws IOException {
        start(config());
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.send(TestPeer.version());
            p.expect("version");
            p.expect("verack");
            p.send(new Message.Verack());
            byte[] bad = PeerSession.frame(TestPeer.MAGIC, "ping", new byte[8]);
            bad[20] ^= 1;
            for (int i = 0; i < 9; i++) {
                p.raw(bad);
            }
            p.send(new Message.Ping(5)); // still connected after 90 points: the stream stayed in sync
            assertEquals(5, ((Message.Pong) p.expect("pong")).nonce());
            assertFalse(server.isBanned(addr(HOSTILE)));
            p.raw(bad);
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
    }

    @Test
    void aMalformedPayloadIsBanned() throws IOException {
        start(config());
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.send(TestPeer.version());
            p.expect("version");
            p.expect("verack");
            p.send(new Message.Verack());
            // getdata claiming 50,000 items with 36 bytes behind it.
            byte[] payload = new byte[3 + 36];
            payload[0] = (byte) 0xfd;
            payload[1] = (byte) 0x50;
            payload[2] = (byte) 0xc3;
            p.raw(PeerSession.frame(TestPeer.MAGIC, "getdata", payload));
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
        assertTrue(registry.scrape().contains("blockfilter_p2p_misbehaviour_total{reason=\"malformed\"} 1.0"));
    }

    @Test
    void aFloodAboveTheMessageBudgetIsBanned() throws IOException {
        start(config().withFloodLimit(10, 50));
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.send(TestPeer.version());
            byte[] ping = PeerSession.frame(TestPeer.MAGIC, "ping", MessageCodec.encode(new Message.Ping(1)));
            boolean open = true;
            for (int i = 0; i < 5_000 && open; i++) {
                open = p.tryRaw(ping);
            }
            assertTrue(p.closedWithin(Duration.ofSeconds(10)));
        }
        assertTrue(server.isBanned(addr(HOSTILE)));
        assertTrue(registry.scrape().contains("blockfilter_p2p_misbehaviour_total{reason=\"flood\"}"));
        assertStillServes();
    }

    @Test
    void announcedPayloadsAreNotAllocatedBeforeTheyArrive() throws IOException {
        // 30 connections from one address: above the per-address limit, which is not what this test is about.
        start(config().withMaxPeers(40).withSlots(new P2pConfig.Slots(40, 40, NetRange.parseAll("127.0.0.1/32"))));
        List<TestPeer> peers = new ArrayList<>();
        try {
            for (int i = 0; i < 30; i++) {
                TestPeer p = TestPeer.connect(server, HOSTILE);
                peers.add(p);
                // 3.9 MB announced, 1,000 bytes sent, then silence.
                p.raw(header("unknowncmd", 3_900_000, new byte[4]));
                p.raw(new byte[1000]);
            }
            await(() -> server.payloadBufferBytes() >= 30L * 1000, "the payloads to be read");
            assertTrue(server.payloadBufferBytes() <= 30L * 64 * 1024, "held " + server.payloadBufferBytes());
        } finally {
            peers.forEach(TestPeer::close);
        }
        await(() -> server.payloadBufferBytes() == 0, "the buffers to be released");
        assertStillServes();
    }

    @Test
    void randomBytesAndMutatedMessagesNeverCrashTheServer() throws IOException {
        start(config().withBanDuration(Duration.ZERO));
        Random random = new Random(157);
        List<byte[]> valid = List.of(
                PeerSession.frame(TestPeer.MAGIC, "version", MessageCodec.encode(TestPeer.version())),
                PeerSession.frame(TestPeer.MAGIC, "verack", new byte[0]),
                PeerSession.frame(
                        TestPeer.MAGIC,
                        "getcfilters",
                        MessageCodec.encode(new Message.GetCFilters(
                                0, 0, CHAIN.active().get(5).blockHash()))),
                PeerSession.frame(
                        TestPeer.MAGIC,
                        "getheaders",
                        MessageCodec.encode(
                                new Message.GetHeaders(70016, List.of(Sha256Hash.ZERO_HASH), Sha256Hash.ZERO_HASH))),
                PeerSession.frame(
                        TestPeer.MAGIC,
                        "getdata",
                        MessageCodec.encode(new Message.GetData(List.of(new Message.InvItem(
                                Message.MSG_WITNESS_BLOCK, CHAIN.active().get(3).blockHash()))))));
        for (int round = 0; round < 300; round++) {
            try (TestPeer p = TestPeer.connect(server, round % 2 == 0 ? HOSTILE : "127.0.0.3")) {
                byte[] bytes;
                if (round % 3 == 0) {
                    bytes = new byte[random.nextInt(2_000)];
                    random.nextBytes(bytes);
                } else {
                    // A valid handshake, then a mutated valid message (a few flipped or truncated bytes).
                    p.tryRaw(valid.get(0));
                    p.tryRaw(valid.get(1));
                    byte[] m = valid.get(2 + random.nextInt(valid.size() - 2)).clone();
                    for (int k = random.nextInt(4); k >= 0; k--) {
                        int at = random.nextInt(m.length);
                        m[at] ^= (byte) (1 << random.nextInt(8));
                    }
                    bytes = random.nextInt(4) == 0 ? java.util.Arrays.copyOf(m, random.nextInt(m.length)) : m;
                }
                p.tryRaw(bytes);
            }
        }
        await(() -> server.peerCount() == 0, "the hostile connections to end");
        assertEquals(0, server.payloadBufferBytes());
        assertStillServes();
    }

    @Test
    void connectionsAboveTheCapAreRefused() throws IOException {
        start(config().withMaxPeers(3));
        List<TestPeer> peers = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                peers.add(TestPeer.handshake(server));
            }
            try (TestPeer fourth = TestPeer.connect(server, "127.0.0.1")) {
                assertTrue(fourth.closedWithin(Duration.ofSeconds(10)));
            }
            assertTrue(registry.scrape().contains("blockfilter_p2p_refused_connections_total{reason=\"full\"} 1.0"));
        } finally {
            peers.forEach(TestPeer::close);
        }
        await(() -> server.peerCount() == 0, "the peers to leave");
        assertStillServes();
    }

    @Test
    void aPeerThatDoesNotFinishTheHandshakeOrGoesSilentIsDisconnected() throws IOException {
        start(config().withTimeouts(
                        Duration.ofMillis(300),
                        Duration.ofMillis(1_500),
                        Duration.ofMinutes(2),
                        Duration.ofSeconds(60)));
        try (TestPeer silent = TestPeer.connect(server, "127.0.0.1")) {
            assertTrue(silent.closedWithin(Duration.ofSeconds(10)));
        }
        try (TestPeer idle = TestPeer.handshake(server)) {
            assertTrue(idle.closedWithin(Duration.ofSeconds(10)));
        }
        // The session counts the disconnect after it closes the socket: wait for the count, do not race it.
        await(
                () -> registry.scrape().contains("blockfilter_p2p_disconnects_total{reason=\"handshake_timeout\"} 1.0"),
                "the handshake timeout to be counted");
        await(
                () -> registry.scrape().contains("blockfilter_p2p_disconnects_total{reason=\"idle_timeout\"} 1.0"),
                "the idle timeout to be counted");
        assertFalse(server.isBanned(addr("127.0.0.1")));
    }

    @Test
    void aPeerThatAsksButNeverReadsIsDisconnectedAfterTheWriteTimeout() throws IOException {
        start(config().withSendQueueBytes(64 << 10)
                .withTimeouts(
                        Duration.ofSeconds(60), Duration.ofMinutes(20), Duration.ofMinutes(2), Duration.ofMillis(500)));
        try (TestPeer p = TestPeer.connect(server, HOSTILE)) {
            p.send(TestPeer.version());
            p.send(new Message.Verack());
            byte[] ask = PeerSession.frame(
                    TestPeer.MAGIC,
                    "getcfilters",
                    MessageCodec.encode(new Message.GetCFilters(
                            0, 0, CHAIN.active().get(299).blockHash())));
            // Ask for far more than the socket buffers and the outbox hold, and read nothing.
            boolean open = true;
            for (int i = 0; i < 2_000 && open; i++) {
                open = p.tryRaw(ask);
            }
            await(
                    () -> registry.scrape().contains("blockfilter_p2p_disconnects_total{reason=\"write_timeout\"} 1.0"),
                    "the write timeout");
        }
        assertFalse(server.isBanned(addr(HOSTILE)), "a slow reader is disconnected, not banned");
        assertStillServes();
    }
}
