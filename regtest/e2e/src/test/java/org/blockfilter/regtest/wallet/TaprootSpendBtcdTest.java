package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import org.blockfilter.wallet.sync.SyncEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Taproot spending against btcd, which enforces BIP 341 on regtest from genesis: the wallet
 * receives coins on two BIP 86 addresses, spends both on the key path, and btcd accepts the
 * transaction into its mempool and then into a block.
 */
@ExtendWith(NodeLogOnFailure.class)
class TaprootSpendBtcdTest {
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

    @Test
    void taprootCoinsAreSpentOnTheKeyPathAndBtcdMinesTheSpend() {
        ScenarioSpec spec = ScenarioSpec.small(20_261_201L, 5);
        chain = WalletFixture.onBtcd(spec);
        node = chain.node();
        LightWallet w = WalletFixture.newWallet(dir.resolve("w.json"), PASSPHRASE, AddressKind.seedKinds());
        chain.pay(List.of(
                WalletFixture.receiving(w, AddressKind.P2TR, 0), WalletFixture.receiving(w, AddressKind.P2TR, 1)));
        node.mine(1);

        try (P2pSource source = P2pSource.connect(
                node.p2pAddress().orElseThrow(),
                Chain.REGTEST,
                P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10)))) {
            new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            Coin received = w.ledger().balance(true);
            assertEquals(2, w.ledger().utxos(true).size());

            // More than either coin: both taproot inputs are needed.
            Coin amount = received.subtract(Coin.CENT);
            Spender spender = new Spender(w);
            PreparedPayment p = spender.prepare(w.unlock(PASSPHRASE), spec.miningAddress(), amount, 2);
            Sha256Hash txid = spender.broadcast(p, List.of(source));
            Sha256Hash blockHash = node.mine(1).get(0);

            Block block = node.block(blockHash).orElseThrow();
            Transaction mined = block.getTransactions().stream()
                    .filter(t -> t.getTxId().equals(txid))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("btcd did not mine " + txid));
            assertEquals(2, mined.getInputs().size());
            for (TransactionInput in : mined.getInputs()) {
                assertEquals(1, in.getWitness().getPushCount());
                assertEquals(64, in.getWitness().getPush(0).length);
            }

            new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            assertEquals(node.tipHeight(), w.ledger().get(txid).orElseThrow().height());
            assertTrue(w.ledger().utxos(true).stream()
                    .allMatch(u -> w.keys().lookup(u.script()).orElseThrow().kind() != AddressKind.P2TR));
            assertEquals(received.subtract(amount).subtract(p.fee()), w.ledger().balance(true));
        }
    }
}
