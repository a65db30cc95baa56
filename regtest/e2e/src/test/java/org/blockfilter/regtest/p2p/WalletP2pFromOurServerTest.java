package org.blockfilter.regtest.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.wallet.FullScan;
import org.blockfilter.regtest.wallet.WalletFixture;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our light wallet's BIP 157 P2P source ({@code sync --peer}) against our own server's P2P
 * listener on the embedded node: after a scenario chain and payments to the wallet of known
 * amounts, its balance is exactly those payments and its coins equal a full scan of the node;
 * a spend it broadcasts through our server reaches the node's mempool; after a reorg on the node
 * (followed by the server's indexer) it agrees with the node's new chain. Every connection is
 * BIP 324 v2 (the default transport), as the listener's sessions counter shows.
 */
@ExtendWith(NodeLogOnFailure.class)
class WalletP2pFromOurServerTest {
    private static final char[] PASSPHRASE = "p2p".toCharArray();

    @TempDir
    Path dir;

    private WalletFixture<EmbeddedNode> chain;
    private EmbeddedNode node;
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

    @Test
    void walletSyncsOverP2pFromOurServerToTheGroundTruthThroughASpendAndAReorg() throws IOException {
        ScenarioSpec spec = ScenarioSpec.small(20_261_201L, 20);
        chain = WalletFixture.onEmbedded(spec);
        node = chain.node();
        LightWallet w = WalletFixture.newWallet(dir.resolve("w.json"), PASSPHRASE, AddressKind.seedKinds());
        Coin paid = Coin.ZERO;
        for (WalletFixture.Payment payment : chain.pay(List.of(
                WalletFixture.receiving(w, AddressKind.P2WPKH, 0),
                WalletFixture.receiving(w, AddressKind.P2WPKH, 7),
                WalletFixture.receiving(w, AddressKind.P2TR, 1)))) {
            paid = paid.add(payment.value());
        }
        node.mine(1);

        server = new FollowingServer(node);
        server.awaitNodeTip();
        try (P2pSource source = P2pSource.connect(
                server.p2pAddress(), Chain.REGTEST, P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(20)))) {
            SyncReport first = new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            assertEquals(node.tipHeight(), first.tipHeight());
            assertEquals(node.tipHash(), w.headers().tipHash());
            assertEquals(paid, w.ledger().balance(true), "the wallet holds exactly what the scenario paid it");
            assertEquals(3, w.ledger().utxos(true).size());
            FullScan.assertWalletMatches(node, w);

            Spender spender = new Spender(w);
            PreparedPayment p = spender.prepare(w.unlock(PASSPHRASE), spec.miningAddress(), Coin.CENT, 2);
            Sha256Hash txid = spender.broadcast(p, List.of(source));
            assertTrue(node.mempool().contains(txid), "the spend relayed through our server is in the node's mempool");
            node.mine(1);
            server.awaitNodeTip();
            new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            assertEquals(node.tipHeight(), w.ledger().get(txid).orElseThrow().height());
            FullScan.assertWalletMatches(node, w);

            node.reorg(2, 3);
            server.awaitNodeTip();
            SyncReport afterReorg = new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            assertTrue(afterReorg.reorgDepth() >= 2, "reorg depth " + afterReorg.reorgDepth());
            assertEquals(node.tipHash(), w.headers().tipHash());
            FullScan.assertWalletMatches(node, w);
        }
        // The default transport is BIP 324: every connection (the sync, the broadcast watcher) was v2.
        assertTrue(server.sessions("v2") >= 1, "v2 sessions " + server.sessions("v2"));
        assertEquals(0, server.sessions("v1"), "no connection fell back to v1");
    }
}
