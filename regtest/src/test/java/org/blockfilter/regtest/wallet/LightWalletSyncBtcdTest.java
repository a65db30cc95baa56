package org.blockfilter.regtest.wallet;

import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.blockfilter.regtest.NodeLogOnFailure;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The light wallet's sync engine over the real transports: a BIP 39 wallet receives payments on
 * a btcd scenario chain, then fresh copies of it sync from genesis over REST (our server), over
 * BIP 157 P2P (btcd), and over both at once; each ends with exactly the paid balance and UTXOs.
 */
@ExtendWith(NodeLogOnFailure.class)
class LightWalletSyncBtcdTest {
    private static final List<String> MNEMONIC = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));
    private static final char[] PASSPHRASE = "correct horse".toCharArray();

    @TempDir
    Path dir;
    private BtcdNode node;
    private ServerOnNode server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private LightWallet wallet(String name) {
        return LightWallet.create(dir.resolve(name), BitcoinNetwork.REGTEST, MNEMONIC, PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH, AddressKind.P2PKH), WalletKeys.DEFAULT_GAP_LIMIT, LightWallet.Birthday.ofHeight(0), 1 << 10);
    }

    @Test
    void freshWalletsSyncTheSameBalanceOverRestOverP2pAndOverBoth() throws IOException {
        ScenarioSpec spec = ScenarioSpec.small(4242L, 30);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        GroundTruth truth = ScenarioRunner.run(node, spec);

        // Pay the wallet from scenario coins: P2WPKH and P2PKH receive addresses, over two blocks.
        LightWallet payee = wallet("payee.json");
        List<Address> to = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            to.add(payee.keys().nextReceive(i % 2 == 0 ? AddressKind.P2WPKH : AddressKind.P2PKH).address());
        }
        List<OwnedOutput> coins = truth.outputs().stream()
                .filter(o -> o.unspent() && !o.coinbase() && o.script().kind() == OutputKind.P2WPKH
                        && o.value().isGreaterThan(Coin.valueOf(200_000)))
                .limit(to.size()).toList();
        assertEquals(to.size(), coins.size(), "enough scenario coins to pay from");
        Coin expected = Coin.ZERO;
        for (int i = 0; i < to.size(); i++) {
            OwnedOutput coin = coins.get(i);
            Coin amount = coin.value().subtract(Coin.valueOf(20_000)).divide(2);
            Transaction tx = new Transaction();
            tx.addOutput(amount, to.get(i));
            tx.addOutput(coin.value().subtract(amount).subtract(Coin.valueOf(10_000)), coin.script().scriptPubKey());
            tx.addSignedInput(coin.outpoint(), coin.script().scriptPubKey(), coin.value(), coin.script().keys().get(0));
            node.submitTransaction(tx.serialize());
            expected = expected.add(amount);
            if (i == 1) {
                node.mine(1);
            }
        }
        node.mine(2);
        server = new ServerOnNode(node);

        try (RestSource rest = RestSource.create(server.baseUri(), Duration.ofSeconds(30));
             P2pSource p2p = P2pSource.connect(node.p2pAddress().orElseThrow(), RegtestNode.PARAMS, P2pSource.Options.DEFAULT)) {
            assertSyncs(wallet("rest.json"), List.of(rest), expected, to.size());
            assertSyncs(wallet("p2p.json"), List.of(p2p), expected, to.size());
            SyncReport both = assertSyncs(wallet("both.json"), List.of(rest, p2p), expected, to.size());
            assertTrue(both.dropped().isEmpty(), "honest sources agree: " + both.dropped());
        }
    }

    private SyncReport assertSyncs(LightWallet wallet, List<ChainSource> sources, Coin expected, int payments) {
        SyncReport report = new SyncEngine(wallet, sources, p -> { }).sync();
        assertEquals(node.tipHeight(), report.tipHeight());
        assertEquals(expected, wallet.ledger().balance(true), "balance via " + sources);
        assertEquals(payments, wallet.ledger().utxos(true).size(), "UTXOs via " + sources);
        return report;
    }
}
