package org.blockfilter.regtest.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.script.Script;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.bdk.BdkPython;
import org.blockfilter.regtest.bdk.BdkTestSupport;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.wallet.WalletFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * BDK's Kyoto light client, an independent BIP 157 implementation, against our server's P2P
 * listener only ({@code CbfBuilder().peers([ours]).only_configured_peers()}): on the embedded
 * node and following btcd, a BDK wallet paid by the scenario syncs to exactly those payments at
 * the node's tip; a transaction BDK broadcasts through our server reaches the node's mempool; a
 * conflicting one the node refuses gets a {@code reject} Kyoto takes as its own (by wtxid), and
 * Kyoto stays connected; a reorg on the node reaches BDK through our announcements. Skips without python3/PyPI (fails
 * under CI=true), and the btcd case without Go.
 */
@ExtendWith(NodeLogOnFailure.class)
class BdkKyotoFromOurServerTest {
    @TempDir
    Path dir;

    private WalletFixture<?> chain;
    private RegtestNode node;
    private FollowingServer server;
    private BdkCbfWallet bdk;

    @AfterEach
    void stop() throws IOException {
        if (bdk != null) {
            bdk.close();
        }
        if (server != null) {
            server.close();
        }
        if (chain != null) {
            chain.close();
        }
    }

    @Test
    void bdkSyncsFromOurServerOnTheEmbeddedNodeBroadcastsThroughItAndFollowsAReorg() throws IOException {
        BdkPython python = BdkTestSupport.pythonOrSkip();
        ScenarioSpec spec = ScenarioSpec.small(20_261_202L, 20);
        chain = WalletFixture.onEmbedded(spec);
        runScenarioSyncBroadcastAndReorg(python, spec, false);
    }

    /**
     * Kyoto with {@code v2_transport=True}: the same sync, broadcast and reorg over BIP 324. The
     * listener's sessions counter proves the transport: every connection Kyoto made finished a v2
     * handshake, none fell back to v1.
     */
    @Test
    void bdkSyncsFromOurServerOverTheV2Transport() throws IOException {
        BdkPython python = BdkTestSupport.pythonOrSkip();
        ScenarioSpec spec = ScenarioSpec.small(20_261_204L, 20);
        chain = WalletFixture.onEmbedded(spec);
        runScenarioSyncBroadcastAndReorg(python, spec, true);
        assertTrue(server.sessions("v2") >= 1, "Kyoto's connections were v2");
        assertEquals(0, server.sessions("v1"), "no connection fell back to v1");
    }

    @Test
    void bdkSyncsFromOurServerFollowingBtcd() throws IOException {
        Path btcd = BtcdTestSupport.binaryOrSkip();
        BdkPython python = BdkTestSupport.pythonOrSkip();
        ScenarioSpec spec = ScenarioSpec.small(20_261_203L, 20);
        chain = WalletFixture.onBtcd(spec, btcd);
        runScenarioSyncBroadcastAndReorg(python, spec, false);
    }

    private void runScenarioSyncBroadcastAndReorg(BdkPython python, ScenarioSpec spec, boolean v2) throws IOException {
        node = chain.node();
        server = new FollowingServer(node);
        bdk = new BdkCbfWallet(python, server.p2pAddress().getPort(), dir, v2);
        List<String> addresses = bdk.addresses(3);

        // The ground truth: the scenario pays BDK's first three addresses amounts we know.
        long paid = 0;
        for (String a : addresses) {
            paid += chain.pay(Script.parse(HexFormat.of().parseHex(a.split(" ")[1])))
                    .value()
                    .value;
        }
        node.mine(1);
        server.awaitNodeTip();

        BdkCbfWallet.State synced = bdk.update();
        assertEquals(node.tipHeight(), synced.height(), bdk.log());
        assertEquals(node.tipHash().toString(), synced.hash());
        assertEquals(paid, synced.confirmed(), "BDK holds exactly what the scenario paid it");
        assertEquals(3, synced.txids().size());

        // BDK broadcasts through our server; the node gets it.
        String txid = bdk.send(spec.miningAddress().toString(), 100_000);
        awaitMempool(Sha256Hash.wrap(txid));

        // A conflict paying less, which the node refuses: Kyoto reads our reject as the answer to its
        // broadcast (a reject by txid it calls unsolicited and drops the peer, its only one), and
        // still follows the next block below.
        BdkCbfWallet.Sent conflict = bdk.sendConflict(spec.miningAddress().toString());
        awaitLog("Warning.TRANSACTION_REJECTED(wtxid=" + conflict.wtxid());
        assertFalse(bdk.log().contains("UNSOLICITED_MESSAGE"), bdk.log());
        assertFalse(node.mempool().contains(Sha256Hash.wrap(conflict.txid())));

        // The spend is mined, then a reorg drops that block: BDK hears of both through our server.
        node.mine(1);
        server.awaitNodeTip();
        BdkCbfWallet.State mined = awaitBdkAt(node.tipHash());
        assertTrue(mined.txids().contains(txid), "BDK sees its spend confirmed: " + mined.txids());
        Sha256Hash beforeReorg = node.tipHash();
        node.reorg(1, 2);
        server.awaitNodeTip();
        BdkCbfWallet.State reorged = awaitBdkAt(node.tipHash());
        assertEquals(node.tipHeight(), reorged.height());
        assertFalse(reorged.hash().equals(beforeReorg.toString()));
    }

    /** Kyoto hands out one update per new tip it hears of; take them until BDK is at {@code tip}. */
    private BdkCbfWallet.State awaitBdkAt(Sha256Hash tip) {
        for (int i = 0; i < 5; i++) {
            BdkCbfWallet.State s = bdk.update();
            if (s.hash().equals(tip.toString())) {
                return s;
            }
        }
        throw new AssertionError("BDK did not reach " + tip + "; its log:\n" + bdk.log());
    }

    private void awaitLog(String line) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!bdk.log().contains(line)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("BDK never logged " + line + "; its log:\n" + bdk.log());
            }
            LockSupport.parkNanos(50_000_000); // polling BDK's log, which its child process writes
        }
    }

    private void awaitMempool(Sha256Hash txid) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!node.mempool().contains(txid)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "BDK's transaction " + txid + " never reached the node's mempool; BDK log:\n" + bdk.log());
            }
            LockSupport.parkNanos(50_000_000); // polling the node's mempool
        }
    }

    /**
     * The server's own demo (its default command on free ports: a chain ending now, a block every
     * 10 s): Kyoto with the demo's P2P port as its only peer syncs to the tip, finds a payment the
     * faucet made to its address (it scans the filters and fetches the block), and follows the next
     * block the demo mines.
     */
    @Test
    void bdkSyncsFromTheServersLiveDemoFindsAFaucetPaymentAndFollowsTheNextBlock() throws Exception {
        BdkPython python = BdkTestSupport.pythonOrSkip();
        try (LiveDemoServer demo = LiveDemoServer.start()) {
            bdk = new BdkCbfWallet(python, demo.p2pPort(), dir);
            String address = bdk.addresses(1).get(0).split(" ")[0];

            com.fasterxml.jackson.databind.JsonNode paid = demo.faucet(address, "0.5");
            int paidAt = paid.path("height").asInt();
            BdkCbfWallet.State s = bdk.update();
            for (int i = 0; i < 10 && (s.height() < paidAt || s.confirmed() != 50_000_000L); i++) {
                s = bdk.update(); // one update per tip Kyoto hears of; the demo mines on meanwhile
            }
            assertTrue(s.height() >= paidAt, "BDK reached the faucet's block " + paidAt + ": " + s + "\n" + bdk.log());
            assertEquals(50_000_000L, s.confirmed(), "BDK found the faucet's payment: " + s);
            assertTrue(s.txids().contains(paid.path("txid").asText()), s.txids().toString());

            int seen = s.height();
            BdkCbfWallet.State next = bdk.update();
            assertTrue(next.height() > seen, "BDK followed the demo's next block: " + next + " after " + seen);
        }
    }
}
