package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
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
    private static final List<String> MNEMONIC = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));
    private static final char[] PASSPHRASE = "e2e".toCharArray();

    @TempDir
    Path dir;

    private BtcdNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void taprootCoinsAreSpentOnTheKeyPathAndBtcdMinesTheSpend() {
        ScenarioSpec spec = ScenarioSpec.small(20_261_201L, 5);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        GroundTruth truth = ScenarioRunner.run(node, spec);
        LightWallet w = LightWallet.create(
                dir.resolve("w.json"),
                BitcoinNetwork.REGTEST,
                MNEMONIC,
                PASSPHRASE,
                EnumSet.allOf(AddressKind.class),
                20,
                LightWallet.Birthday.ofHeight(0),
                1 << 10);
        List<Address> taproot = List.of(
                w.keys()
                        .account(AddressKind.P2TR)
                        .orElseThrow()
                        .derive(false, 0)
                        .address(),
                w.keys()
                        .account(AddressKind.P2TR)
                        .orElseThrow()
                        .derive(false, 1)
                        .address());
        WalletFunding.pay(node, truth, taproot);
        node.mine(1);

        try (P2pSource source = P2pSource.connect(
                node.p2pAddress().orElseThrow(),
                RegtestNode.PARAMS,
                P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10)))) {
            new SyncEngine(w, List.of(source), null).sync();
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

            new SyncEngine(w, List.of(source), null).sync();
            assertEquals(node.tipHeight(), w.ledger().get(txid).orElseThrow().height());
            assertTrue(w.ledger().utxos(true).stream()
                    .allMatch(u -> w.keys().lookup(u.script()).orElseThrow().kind() != AddressKind.P2TR));
            assertEquals(received.subtract(amount).subtract(p.fee()), w.ledger().balance(true));
        }
    }
}
