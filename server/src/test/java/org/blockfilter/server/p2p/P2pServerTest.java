package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.MessageCodec;
import org.blockfilter.server.http.P2pFixtures;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.p2p.internal.Bip157Responder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The P2P listener as a BIP 157 node over a test chain of 2,100 blocks: handshake, headers by
 * locator, the cf messages byte-identical to the REST answers from the same index, Core's
 * stop-hash rules and limits, getdata, relay and announcements' absence of surprises.
 */
class P2pServerTest {
    private static final int LENGTH = 2_100;
    private static final P2pFixtures.Fixture CHAIN = P2pFixtures.build(LENGTH);

    private final HttpClient http = HttpClient.newHttpClient();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private P2pServer server;
    private RestServer rest;

    @BeforeEach
    void start() throws IOException {
        // 127.0.0.1 is not local here, so that "without a ban" means something; no per-address limit
        // either, since the tests open one connection after another before the server sees the last close.
        server = P2pServer.start(
                P2pConfig.forChain(Chain.REGTEST).withSlots(new P2pConfig.Slots(64, 64, java.util.List.of())),
                CHAIN.index(),
                CHAIN.node(),
                registry);
    }

    @AfterEach
    void stop() {
        server.close();
        if (rest != null) {
            rest.close();
        }
    }

    private static Sha256Hash hashAt(int h) {
        return CHAIN.active().get(h).blockHash();
    }

    private byte[] restBinary(String path) throws IOException, InterruptedException {
        if (rest == null) {
            rest = P2pFixtures.rest(CHAIN);
        }
        HttpResponse<byte[]> r = http.send(
                HttpRequest.newBuilder(URI.create(rest.baseUri() + path))
                        .header("Accept", "application/octet-stream")
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), path);
        return r.body();
    }

    @Test
    void handshakeAdvertisesCompactFiltersWitnessAndNetworkWithTheIndexTip() {
        try (TestPeer p = TestPeer.handshake(server)) {
            long services = p.peerVersion.services();
            assertEquals(
                    P2pConfig.NODE_NETWORK
                            | P2pConfig.NODE_WITNESS
                            | P2pConfig.NODE_COMPACT_FILTERS
                            | P2pConfig.NODE_NETWORK_LIMITED
                            | P2pConfig.NODE_P2P_V2,
                    services);
            assertEquals(LENGTH - 1, p.peerVersion.startHeight());
            assertTrue(p.peerVersion.protocolVersion() >= 70016);
            p.send(new Message.Ping(7));
            assertEquals(7, ((Message.Pong) p.expect("pong")).nonce());
        }
    }

    @Test
    void getheadersAnswersAtMost2000HeadersAfterTheLocatorForkAndStopsAtTheStopHash() {
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetHeaders(70016, List.of(hashAt(5)), Sha256Hash.ZERO_HASH));
            List<byte[]> all = ((Message.Headers) p.expect("headers")).headers();
            assertEquals(Bip157Responder.MAX_HEADERS, all.size());
            assertArrayEquals(CHAIN.headers().get(hashAt(6)), all.get(0));
            assertArrayEquals(CHAIN.headers().get(hashAt(2005)), all.get(1999));

            // Unknown hashes first, then a known one: the fork is the first hash on our chain.
            p.send(new Message.GetHeaders(70016, List.of(Sha256Hash.of(new byte[] {1}), hashAt(100)), hashAt(102)));
            List<byte[]> two = ((Message.Headers) p.expect("headers")).headers();
            assertEquals(2, two.size());
            assertArrayEquals(CHAIN.headers().get(hashAt(102)), two.get(1));

            // No hash known: start after genesis, as Core's FindForkInGlobalIndex.
            p.send(new Message.GetHeaders(70016, List.of(Sha256Hash.of(new byte[] {2})), hashAt(1)));
            List<byte[]> first = ((Message.Headers) p.expect("headers")).headers();
            assertEquals(1, first.size());
            assertArrayEquals(CHAIN.headers().get(hashAt(1)), first.get(0));

            // At the tip: an empty headers message, never silence.
            p.send(new Message.GetHeaders(70016, List.of(hashAt(LENGTH - 1)), Sha256Hash.ZERO_HASH));
            assertEquals(0, ((Message.Headers) p.expect("headers")).headers().size());
        }
    }

    @Test
    void cfiltersAreByteIdenticalToTheRestBinaryFilters() throws Exception {
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetCFilters(0, 1000, hashAt(1999)));
            ByteArrayOutputStream fromP2p = new ByteArrayOutputStream();
            for (int h = 1000; h <= 1999; h++) {
                Message.CFilter f = (Message.CFilter) p.expect("cfilter");
                assertEquals(hashAt(h), f.blockHash());
                if (h % 50 == 0) {
                    assertArrayEquals(restBinary("/api/v1/filters/" + h), f.filter(), "filter at " + h);
                }
                byte[] payload = MessageCodec.encode(f);
                fromP2p.write(payload, 1, payload.length - 1); // without the filter type
            }
            byte[] range = restBinary("/api/v1/filters?start_height=1000&stop_hash=" + hashAt(1999));
            assertArrayEquals(range, fromP2p.toByteArray());
        }
    }

    @Test
    void cfheadersAndCfcheckptAreByteIdenticalToTheRestFilterHeadersAndCheckpoints() throws Exception {
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetCFHeaders(0, 0, hashAt(1999)));
            Message.CFHeaders h = (Message.CFHeaders) p.expect("cfheaders");
            assertEquals(2000, h.filterHashes().size());
            assertEquals(hashAt(1999), h.stopHash());
            byte[] payload = MessageCodec.encode(h);
            assertArrayEquals(
                    restBinary("/api/v1/filter-headers?start_height=0&stop_hash=" + hashAt(1999)),
                    Arrays.copyOfRange(payload, 33, payload.length));

            p.send(new Message.GetCFHeaders(0, 1500, hashAt(LENGTH - 1)));
            Message.CFHeaders tail = (Message.CFHeaders) p.expect("cfheaders");
            assertEquals(CHAIN.active().get(1499).header(), tail.previousHeader());

            p.send(new Message.GetCFCheckpt(0, hashAt(LENGTH - 1)));
            Message.CFCheckpt c = (Message.CFCheckpt) p.expect("cfcheckpt");
            assertEquals(
                    List.of(
                            CHAIN.active().get(1000).header(),
                            CHAIN.active().get(2000).header()),
                    c.headers());
            byte[] cp = MessageCodec.encode(c);
            assertArrayEquals(
                    restBinary("/api/v1/checkpoints?stop_hash=" + hashAt(LENGTH - 1)),
                    Arrays.copyOfRange(cp, 33, cp.length));
        }
    }

    @Test
    void headersAreByteIdenticalToTheRestHeaders() throws Exception {
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetHeaders(70016, List.of(hashAt(0)), Sha256Hash.ZERO_HASH));
            List<byte[]> headers = ((Message.Headers) p.expect("headers")).headers();
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            headers.forEach(joined::writeBytes);
            assertArrayEquals(restBinary("/api/v1/headers?start_height=1&count=2000"), joined.toByteArray());
        }
    }

    @Test
    void filterRequestsCoreDisconnectsForEndTheConnectionWithoutABan() {
        List<Message> bad = List.of(
                new Message.GetCFilters(0, 0, hashAt(1000)), // 1,001 filters
                new Message.GetCFHeaders(0, 0, hashAt(2000)), // 2,001 headers
                new Message.GetCFilters(0, 11, hashAt(10)), // start above stop
                new Message.GetCFilters(0, 0xFFFF_FFFFL, hashAt(10)), // the largest uint32 start height
                new Message.GetCFHeaders(0, 0x8000_0000L, hashAt(10)),
                new Message.GetCFilters(1, 0, hashAt(10)), // not the basic type
                new Message.GetCFCheckpt(0, Sha256Hash.of(new byte[] {9})), // unknown stop hash
                new Message.GetHeaders(70016, java.util.Collections.nCopies(102, hashAt(1)), Sha256Hash.ZERO_HASH));
        for (Message m : bad) {
            try (TestPeer p = TestPeer.handshake(server)) {
                p.send(m);
                assertTrue(p.closedWithin(Duration.ofSeconds(10)), "disconnect after " + m);
            }
        }
        assertFalse(server.isBanned(java.net.InetAddress.getLoopbackAddress()));
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetCFilters(0, 999, hashAt(1998)));
            assertEquals(1000, countCFilters(p, 1000));
        }
    }

    private static int countCFilters(TestPeer p, int n) {
        int seen = 0;
        for (int i = 0; i < n; i++) {
            p.expect("cfilter");
            seen++;
        }
        return seen;
    }

    @Test
    void staleOrNotYetIndexedStopHashesGetNoAnswerAndTheConnectionStays() {
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetCFilters(0, 45, CHAIN.stale().blockHash()));
            p.send(new Message.GetCFHeaders(0, 45, CHAIN.unindexedButKnownToNode()));
            p.send(new Message.GetCFCheckpt(0, CHAIN.stale().blockHash()));
            p.send(new Message.Ping(99));
            // Nothing came before the pong.
            assertEquals(99, ((Message.Pong) p.expect("pong")).nonce());
        }
    }

    @Test
    void getdataServesIndexedWitnessBlocksFromTheNodeAndNotfoundForTheRest() {
        Sha256Hash vectorBlock = hashAt(3); // a BIP 158 vector block with transactions
        Sha256Hash unknown = Sha256Hash.of(new byte[] {3});
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.GetData(List.of(
                    new Message.InvItem(Message.MSG_WITNESS_BLOCK, vectorBlock),
                    new Message.InvItem(Message.MSG_WITNESS_BLOCK, unknown),
                    new Message.InvItem(Message.MSG_WITNESS_BLOCK, CHAIN.unindexedButKnownToNode()),
                    new Message.InvItem(Message.MSG_WITNESS_TX, unknown))));
            Message.BlockMessage b = (Message.BlockMessage) p.expect("block");
            assertArrayEquals(CHAIN.rawBlocks().get(vectorBlock), b.raw());
            Message.NotFound nf = (Message.NotFound) p.expect("notfound");
            assertEquals(3, nf.items().size());
            assertEquals(unknown, nf.items().get(0).hash());
        }
    }

    @Test
    void aTransactionIsRelayedToTheNodeAndServedBackWhileARefusedOneGetsTheNodesReason() {
        Transaction good = tx(Coin.valueOf(50_000));
        Transaction dust = tx(Coin.ZERO);
        try (TestPeer p = TestPeer.handshake(server)) {
            p.send(new Message.Inv(List.of(new Message.InvItem(Bip157Responder.MSG_WTX, good.getWTxId()))));
            Message.GetData ask = (Message.GetData) p.expect("getdata");
            assertEquals(List.of(new Message.InvItem(Bip157Responder.MSG_WTX, good.getWTxId())), ask.items());
            p.send(new Message.Tx(good.serialize()));
            p.send(new Message.GetData(List.of(new Message.InvItem(Message.MSG_WITNESS_TX, good.getTxId()))));
            assertArrayEquals(good.serialize(), ((Message.Tx) p.expect("tx")).raw());

            p.send(new Message.Tx(dust.serialize()));
            Message.Reject r = (Message.Reject) p.expect("reject");
            assertEquals(dust.getTxId(), r.data());
            assertTrue(r.reason().contains("dust"), r.reason());
        }
        String metrics = registry.scrape();
        assertTrue(metrics.contains("blockfilter_p2p_tx_relayed_total{outcome=\"accepted\"} 1.0"), metrics);
        assertTrue(metrics.contains("blockfilter_p2p_messages_received_total{command=\"tx\"} 2.0"), metrics);
    }

    private static Transaction tx(Coin value) {
        Transaction tx = new Transaction();
        tx.addInput(
                Sha256Hash.of(new byte[] {5}),
                0,
                new ScriptBuilder().data(new byte[] {1, 2, 3}).build());
        tx.addOutput(value, ScriptBuilder.createP2WPKHOutputScript(new ECKey()));
        return Transaction.read(ByteBuffer.wrap(tx.serialize()));
    }

    @Test
    void messagesBeforeTheHandshakeAreIgnoredAndUnknownOnesAfterIt() {
        try (TestPeer p = TestPeer.connect(server, "127.0.0.1")) {
            p.send(new Message.GetCFCheckpt(0, hashAt(10)));
            p.send(TestPeer.version());
            p.expect("version");
            p.expect("verack");
            p.send(new Message.Verack());
            p.raw(org.blockfilter.server.p2p.internal.PeerSession.frame(TestPeer.MAGIC, "sendcmpct", new byte[9]));
            p.raw(org.blockfilter.server.p2p.internal.PeerSession.frame(TestPeer.MAGIC, "whatever", new byte[3]));
            p.send(new Message.GetCFCheckpt(0, hashAt(10)));
            Message.CFCheckpt c = (Message.CFCheckpt) p.expect("cfcheckpt");
            assertEquals(0, c.headers().size());
        }
        assertInstanceOf(String.class, registry.scrape());
        assertTrue(registry.scrape().contains("blockfilter_p2p_messages_received_total{command=\"other\"} 1.0"));
    }
}
