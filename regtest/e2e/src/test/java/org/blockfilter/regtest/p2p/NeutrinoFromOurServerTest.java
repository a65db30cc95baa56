package org.blockfilter.regtest.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.wallet.WalletFixture;
import org.blockfilter.server.read.IndexedFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * lightninglabs/neutrino, LND's BIP 157 client and an implementation nobody here wrote, syncs from our
 * server's P2P listener alone (the embedded node's chain, block times of now): block headers to the
 * node's tip, filter headers (checked by neutrino against our {@code cfcheckpt}) equal to our index's at
 * every height, and every filter, each checked by neutrino against its filter header; on the server's live
 * demo, neutrino's rescan finds a faucet payment. Skips without Go
 * (fails under CI=true).
 */
@ExtendWith(NodeLogOnFailure.class)
class NeutrinoFromOurServerTest {
    @TempDir
    Path dir;

    private WalletFixture<?> chain;
    private FollowingServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (chain != null) {
            chain.close();
        }
    }

    /** A 1,050-block chain on the embedded node, indexed by our server; its tip height. */
    private int chainOf1050Blocks() throws IOException {
        chain = WalletFixture.onEmbedded(ScenarioSpec.small(20_261_218L, 20));
        RegtestNode node = chain.node();
        // Past one cfcheckpt interval (1,000), so neutrino's checkpointed filter-header path is used too.
        node.mine(1_050 - node.tipHeight());
        server = new FollowingServer(node);
        server.awaitNodeTip();
        return node.tipHeight();
    }

    @Test
    void neutrinoSyncsHeadersFilterHeadersAndVerifiedFiltersToTheTipAndAgreesWithOurIndex() throws Exception {
        Path neutrino = NeutrinoSync.binaryOrSkip();
        int tip = chainOf1050Blocks();
        RegtestNode node = chain.node();

        NeutrinoSync.Result r = NeutrinoSync.sync(
                neutrino,
                "127.0.0.1:" + server.p2pAddress().getPort(),
                tip,
                dir.resolve("neutrino"),
                Duration.ofSeconds(50),
                true);

        assertEquals(tip, r.height(), r.log());
        assertEquals(node.tipHash().toString(), r.hash());
        assertEquals(tip, r.filtersVerified(), "every filter 1..tip fetched and checked against its header");
        List<String> ours = new ArrayList<>();
        for (int h = 0; h <= tip; h++) {
            Sha256Hash hash = server.index().hashAt(h).orElseThrow();
            IndexedFilter f = server.index().filter(hash).orElseThrow();
            ours.add(f.header().toString());
        }
        assertEquals(ours, r.filterHeaders(), "neutrino's filter headers, heights 0.." + tip);
        assertTrue(r.bytesReceived() > 0 && r.bytesSent() > 0, "neutrino counted its traffic: " + r);
    }

    /** The harness's claim that neutrino verifies filters, shown: one altered filter and the sync fails at its height. */
    @Test
    void neutrinoRefusesAFilterThatDoesNotMatchItsFilterHeader() throws Exception {
        Path neutrino = NeutrinoSync.binaryOrSkip();
        int tip = chainOf1050Blocks();
        Sha256Hash first = server.index().hashAt(1).orElseThrow();
        try (FilterFlippingP2pProxy liar = new FilterFlippingP2pProxy(server.p2pAddress(), first)) {
            AssertionError e = assertThrows(
                    AssertionError.class,
                    () -> NeutrinoSync.sync(
                            neutrino,
                            "127.0.0.1:" + liar.port(),
                            tip,
                            dir.resolve("neutrino"),
                            Duration.ofSeconds(40),
                            false,
                            1, // one retry: the lie is repeated, so more only make the test slower
                            List.of()));
            assertTrue(
                    e.getMessage().contains("filter at height 1 (" + first + ") not fetched or not verified"),
                    e.getMessage());
            assertTrue(liar.flipped() >= 1, "the proxy altered the filter of block 1");
        }
    }

    /**
     * The server's own demo (its default command with free ports): a 300-block chain whose times end
     * now and a block every 10 s. neutrino syncs from its P2P port alone to the tip, verifies every
     * filter against its filter header, its filter headers equal the REST API's at every height (so
     * every filter it took is byte-equal to REST's). Then the faucet pays a fresh address and mines
     * the payment; a second run from the same data directory follows to that newer block and rescans
     * the chain with neutrino's own rescan: it finds exactly the faucet's transaction at the faucet's
     * height for the paid address, and nothing for an address never paid. With the demo's old block
     * times (from 2025-01-01) neutrino never thought its headers synced and stopped at height 0.
     */
    @Test
    void neutrinoFinishesOnTheServersLiveDemoFollowsItsNextBlockAndRescansForAFaucetPayment() throws Exception {
        Path neutrino = NeutrinoSync.binaryOrSkip();
        try (LiveDemoServer demo = LiveDemoServer.start()) {
            int tip = demo.indexedHeight();
            assertTrue(tip >= 300, "the demo chain: " + tip);

            NeutrinoSync.Result r = NeutrinoSync.sync(
                    neutrino,
                    "127.0.0.1:" + demo.p2pPort(),
                    tip,
                    dir.resolve("neutrino"),
                    Duration.ofSeconds(120),
                    true);
            assertEquals(tip, r.height(), r.log());
            assertEquals(tip, r.filtersVerified(), "every filter 1..tip fetched and checked against its header");
            for (int h = 0; h <= tip; h++) {
                assertEquals(
                        demo.get("/api/v1/filters/" + h).path("header").asText(),
                        r.filterHeaders().get(h),
                        "height " + h);
            }

            // The faucet pays and mines a block past neutrino's tip; neutrino follows to it from its
            // stored headers and rescans blocks 1..next for both addresses.
            String paid = freshAddress();
            String neverPaid = freshAddress();
            JsonNode payment = demo.faucet(paid, "0.25");
            String txid = payment.path("txid").asText();
            int paidAt = payment.path("height").asInt();
            assertTrue(paidAt > r.height(), "the faucet mined its payment past neutrino's tip: " + payment);
            int next = awaitIndexed(demo, paidAt);
            NeutrinoSync.Result followed = NeutrinoSync.sync(
                    neutrino,
                    "127.0.0.1:" + demo.p2pPort(),
                    next,
                    dir.resolve("neutrino"),
                    Duration.ofSeconds(120),
                    false,
                    -1,
                    List.of(paid, neverPaid));
            assertEquals(next, followed.height(), followed.log());
            assertEquals(demo.get("/api/v1/filters/" + next).path("blockHash").asText(), followed.hash());
            assertEquals(
                    Map.of(paid, next, neverPaid, next),
                    followed.rescannedBlocks(),
                    "each rescan went through blocks 1.." + next);
            assertEquals(
                    List.of(new NeutrinoSync.RescanTx(paid, txid, paidAt)),
                    followed.rescanTxs(),
                    "neutrino's rescans: the faucet's payment to " + paid + ", nothing for " + neverPaid);
        }
    }

    /** A P2WPKH regtest address of a new key: nothing on the chain pays it before the test does. */
    private static String freshAddress() {
        return new ECKey().toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST).toString();
    }

    /** The demo's indexed height once it reaches {@code height}; generous, as the index follows the node asynchronously. */
    private static int awaitIndexed(LiveDemoServer demo, int height) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        int indexed;
        while ((indexed = demo.indexedHeight()) < height) {
            assertTrue(System.nanoTime() < deadline, "the demo did not index block " + height + " in 2 minutes");
            Thread.sleep(200); // polling the REST status
        }
        return indexed;
    }
}
