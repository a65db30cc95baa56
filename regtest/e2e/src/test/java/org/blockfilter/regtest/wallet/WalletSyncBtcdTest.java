package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.bitcoinj.base.AddressParser;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The light wallet against a real btcd over BIP 157 P2P: after a scenario chain, payments to the
 * wallet (every account kind, one beyond the first gap window), a spend by the wallet and a
 * reorg, its UTXO set and balance equal a full scan of btcd's best chain.
 */
@ExtendWith(NodeLogOnFailure.class)
class WalletSyncBtcdTest {
    private static final char[] PASSPHRASE = "e2e".toCharArray();

    @TempDir
    Path dir;

    private WalletFixture<BtcdNode> chain;
    private RegtestNode node;

    @AfterEach
    void stop() {
        if (chain != null) {
            chain.close();
        }
    }

    private void start(ScenarioSpec spec) {
        chain = WalletFixture.onBtcd(spec);
        node = chain.node();
    }

    private P2pSource connect() {
        return P2pSource.connect(
                node.p2pAddress().orElseThrow(),
                Chain.REGTEST,
                P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    }

    private static SyncReport sync(LightWallet w, P2pSource source) {
        return new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
    }

    @Test
    void walletEqualsAFullScanOfBtcdThroughP2pIncludingSpendAndReorg() {
        ScenarioSpec spec = ScenarioSpec.small(20_261_130L, 20);
        start(spec);
        LightWallet w = WalletFixture.newWallet(dir.resolve("w.json"), PASSPHRASE, AddressKind.seedKinds());

        // Scenario coins pay the wallet: every kind, and index 25 which only the slid gap window reaches.
        chain.pay(List.of(
                WalletFixture.receiving(w, AddressKind.P2WPKH, 0),
                WalletFixture.receiving(w, AddressKind.P2WPKH, 10),
                WalletFixture.receiving(w, AddressKind.P2WPKH, 25),
                WalletFixture.receiving(w, AddressKind.P2PKH, 0),
                w.keys().account(AddressKind.P2TR).orElseThrow().derive(true, 2).address()));
        node.mine(1);
        node.mine(1);
        try (P2pSource source = connect()) {
            SyncReport first = sync(w, source);
            assertEquals(node.tipHeight(), first.tipHeight());
            assertEquals(5, w.ledger().utxos(true).size());
            FullScan.assertWalletMatches(node, w);

            Spender spender = new Spender(w);
            PreparedPayment p = spender.prepare(w.unlock(PASSPHRASE), spec.miningAddress(), Coin.CENT, 2);
            Sha256Hash txid = spender.broadcast(p, List.of(source));
            node.mine(1);
            node.mine(1);
            sync(w, source);
            assertEquals(
                    node.tipHeight() - 1, w.ledger().get(txid).orElseThrow().height());
            FullScan.assertWalletMatches(node, w);

            node.reorg(2, 3); // drops the spend's block; btcd may put the spend back in its mempool
            SyncReport afterReorg = sync(w, source);
            assertTrue(afterReorg.reorgDepth() >= 2, "reorg depth " + afterReorg.reorgDepth());
            assertEquals(node.tipHash(), w.headers().tipHash());
            FullScan.assertWalletMatches(node, w);
            assertTrue(afterReorg.dropped().isEmpty(), afterReorg.dropped().toString());
        }
        LightWallet reloaded = LightWallet.load(dir.resolve("w.json"));
        FullScan.assertWalletMatches(node, reloaded);
        assertEquals(
                new ArrayList<>(w.ledger().history()),
                new ArrayList<>(reloaded.ledger().history()));
    }

    @Test
    void walletEqualsAFullScanThroughOurServerAndBtcdTogetherIncludingAReorg() throws IOException {
        start(ScenarioSpec.small(7L, 15));
        LightWallet w = WalletFixture.newWallet(dir.resolve("w.json"), PASSPHRASE, EnumSet.of(AddressKind.P2WPKH));
        for (int i : new int[] {0, 3, 7}) {
            chain.pay(WalletFixture.receiving(w, AddressKind.P2WPKH, i));
            node.mine(1);
        }

        try (ServerOnNode server = new ServerOnNode(node);
                ChainSource rest = RestSource.create(server.baseUri(), Duration.ofSeconds(10));
                P2pSource p2p = connect()) {
            SyncReport r = new SyncEngine(w, List.of(rest, p2p), SyncEngine.Options.defaults()).sync();
            assertTrue(r.dropped().isEmpty(), r.dropped().toString());
            assertEquals(List.of(rest.name(), p2p.name()), r.sourcesUsed());
            assertEquals(3, w.ledger().utxos(true).size());
            FullScan.assertWalletMatches(node, w);

            node.reorg(2, 3); // drops the blocks of the last two payments; btcd may mine them again later
            server.reindex();
            SyncReport after = new SyncEngine(w, List.of(rest, p2p), SyncEngine.Options.defaults()).sync();
            assertTrue(after.dropped().isEmpty(), after.dropped().toString());
            assertTrue(after.reorgDepth() >= 2, "reorg depth " + after.reorgDepth());
            assertEquals(node.tipHash(), w.headers().tipHash());
            FullScan.assertWalletMatches(node, w);
        }
    }

    private static String[] cli(Path dir, String... rest) {
        String[] head = {
            "--wallet",
            dir.resolve("cli.json").toString(),
            "--passphrase-file",
            dir.resolve("pw").toString(),
            "--json"
        };
        String[] all = new String[head.length + rest.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(rest, 0, all, head.length, rest.length);
        return all;
    }

    private static InProcessCli.Run run(String... args) {
        return InProcessCli.run(args);
    }

    @Test
    void commandLineRestoresSyncsFromBtcdAndSends() throws Exception {
        ScenarioSpec spec = ScenarioSpec.small(11L, 5);
        start(spec);
        Files.writeString(dir.resolve("pw"), "cli pass\n");
        Files.writeString(dir.resolve("m"), String.join(" ", WalletFixture.MNEMONIC) + "\n");
        InProcessCli.Run restored =
                run(cli(dir, "restore", "--mnemonic-file", dir.resolve("m").toString(), "--kinds", "p2wpkh"));
        assertEquals(0, restored.code(), restored.err());
        ObjectMapper json = new ObjectMapper();
        String address = json.readTree(restored.out()).get("receiveAddress").asText();

        Coin paid = chain.pay(AddressParser.getDefault(BitcoinNetwork.REGTEST).parseAddress(address))
                .value();
        node.mine(1);
        String peer = "127.0.0.1:" + node.p2pAddress().orElseThrow().getPort();
        InProcessCli.Run synced = run(cli(dir, "sync", "--peer", peer));
        assertEquals(0, synced.code(), synced.err());
        assertTrue(synced.err().contains("matched 1"), "progress bar on stderr: " + synced.err());
        assertEquals(node.tipHeight(), json.readTree(synced.out()).get("height").asInt());
        assertEquals(
                paid.toPlainString(),
                json.readTree(run(cli(dir, "balance")).out()).get("spendable").asText());

        InProcessCli.Run sent = run(cli(
                dir,
                "send",
                "--to",
                spec.miningAddress().toString(),
                "--amount",
                "0.001",
                "--fee-rate",
                "3",
                "--yes",
                "--peer",
                peer));
        assertEquals(0, sent.code(), sent.err());
        JsonNode s = json.readTree(sent.out());
        node.mine(1);
        assertEquals(0, run(cli(dir, "sync", "--peer", peer, "--quiet")).code());
        Coin expected = paid.subtract(Coin.MILLICOIN)
                .subtract(Coin.parseCoin(s.get("fee").asText()));
        assertEquals(
                expected.toPlainString(),
                json.readTree(run(cli(dir, "balance")).out()).get("spendable").asText());
        JsonNode history = json.readTree(run(cli(dir, "history")).out()).get("transactions");
        assertEquals(2, history.size());
        assertEquals(s.get("txid").asText(), history.get(1).get("txid").asText());
        assertEquals(node.tipHeight(), history.get(1).get("height").asInt());
    }
}
