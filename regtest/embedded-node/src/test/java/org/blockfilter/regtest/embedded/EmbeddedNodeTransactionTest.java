package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.regtest.embedded.internal.InputSigner;
import org.blockfilter.regtest.embedded.internal.OutPoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Mempool acceptance: what the node takes, what it refuses, and with which of Core's reasons. */
class EmbeddedNodeTransactionTest {
    private static final long COIN = 100_000_000L;
    private final ECKey miner = Fixtures.key("miner");
    private final ECKey alice = Fixtures.key("alice");
    private final ECKey bob = Fixtures.key("bob");
    private EmbeddedNode node;

    @BeforeEach
    void mineMatureCoinbases() {
        node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner));
        node.mine(101); // the next block is 102, so the coinbases of blocks 1 and 2 are mature
    }

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void acceptsP2pkhAndP2wpkhSpendsAndMinesThem() {
        Transaction toAlice = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        assertEquals(toAlice.getTxId(), node.submitTransaction(toAlice.serialize()));
        assertEquals(List.of(toAlice.getTxId()), node.mempool());
        node.mine(1);
        assertTrue(node.mempool().isEmpty());
        assertTrue(node.chain().utxo(new OutPoint(toAlice.getTxId(), 0)).isPresent());

        Transaction toBob = Fixtures.pay(Fixtures.output(toAlice, 0, alice), Fixtures.p2pkh(bob), 48 * COIN);
        node.submitTransaction(toBob.serialize());
        Sha256Hash block = node.mine(1).get(0);
        assertEquals(2, node.block(block).orElseThrow().getTransactions().size());
        assertFalse(
                node.chain().utxo(new OutPoint(toAlice.getTxId(), 0)).isPresent(), "spent output leaves the UTXO set");
        assertEquals(
                48 * COIN,
                node.chain()
                        .utxo(new OutPoint(toBob.getTxId(), 0))
                        .orElseThrow()
                        .value());
        // Fees go to the miner: 1 BTC per spend on top of the subsidy.
        assertEquals(
                51 * COIN,
                node.block(block)
                        .orElseThrow()
                        .getTransactions()
                        .get(0)
                        .getOutput(0)
                        .getValue()
                        .value);
    }

    @Test
    void acceptsAChainOfUnconfirmedTransactions() {
        Transaction parent = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        Transaction child = Fixtures.pay(Fixtures.output(parent, 0, alice), Fixtures.p2wpkh(bob), 48 * COIN);
        node.submitTransaction(parent.serialize());
        node.submitTransaction(child.serialize());
        node.mine(1);
        assertTrue(node.chain().utxo(new OutPoint(child.getTxId(), 0)).isPresent());
    }

    @Test
    void resubmittingAMempoolTransactionIsHarmless() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        node.submitTransaction(tx.serialize());
        assertEquals(tx.getTxId(), node.submitTransaction(tx.serialize()));
        assertEquals(1, node.mempool().size());
    }

    @Test
    void rejectsADoubleSpendOfAMempoolInput() {
        InputSigner.Input coin = Fixtures.coinbase(node, 1, miner);
        node.submitTransaction(
                Fixtures.pay(coin, Fixtures.p2wpkh(alice), 49 * COIN).serialize());
        Transaction conflict = Fixtures.pay(coin, Fixtures.p2wpkh(bob), 49 * COIN);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(conflict.serialize()));
        assertEquals("txn-mempool-conflict", e.reason());
        assertEquals(-26, e.rpcCode());
    }

    @Test
    void rejectsSpendingAnOutputAlreadySpentInABlock() {
        InputSigner.Input coin = Fixtures.coinbase(node, 1, miner);
        node.submitTransaction(
                Fixtures.pay(coin, Fixtures.p2wpkh(alice), 49 * COIN).serialize());
        node.mine(1);
        Transaction again = Fixtures.pay(coin, Fixtures.p2wpkh(bob), 40 * COIN);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(again.serialize()));
        assertEquals("bad-txns-inputs-missingorspent", e.reason());
        assertEquals(-25, e.rpcCode());
    }

    @Test
    void rejectsAMissingInput() {
        InputSigner.Input ghost = new InputSigner.Input(
                new OutPoint(Sha256Hash.of(new byte[] {1}), 0),
                10 * COIN,
                Fixtures.script(Fixtures.p2pkh(miner)),
                miner);
        Transaction tx = Fixtures.pay(ghost, Fixtures.p2wpkh(alice), COIN);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(tx.serialize()));
        assertEquals("bad-txns-inputs-missingorspent", e.reason());
    }

    @Test
    void rejectsABadSignature() {
        InputSigner.Input coin = Fixtures.coinbase(node, 1, miner);
        InputSigner.Input signedByAlice = new InputSigner.Input(coin.outpoint(), coin.value(), coin.script(), alice);
        // P2PKH with Alice's key: the pubkey hash does not match.
        Transaction wrongKey = Fixtures.pay(signedByAlice, Fixtures.p2wpkh(alice), 49 * COIN);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(wrongKey.serialize()));
        assertTrue(e.reason().startsWith("mandatory-script-verify-flag-failed"), e.getMessage());

        // Right key, but the signature is over other outputs (amount changed after signing).
        Transaction tampered = Fixtures.pay(coin, Fixtures.p2wpkh(alice), 49 * COIN);
        tampered.clearOutputs();
        tampered.addOutput(new org.bitcoinj.core.TransactionOutput(
                tampered, org.bitcoinj.base.Coin.valueOf(48 * COIN), Fixtures.script(Fixtures.p2wpkh(alice))));
        RejectedException e2 =
                assertThrows(RejectedException.class, () -> node.submitTransaction(tampered.serialize()));
        assertTrue(e2.reason().startsWith("mandatory-script-verify-flag-failed"), e2.getMessage());
    }

    @Test
    void rejectsABadWitnessSignature() {
        Transaction toAlice = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        node.submitTransaction(toAlice.serialize());
        node.mine(1);
        Transaction spend = Fixtures.pay(Fixtures.output(toAlice, 0, alice), Fixtures.p2pkh(bob), 48 * COIN);
        TransactionWitness w = spend.getInput(0).getWitness();
        byte[] sig = w.getPush(0).clone();
        sig[10] ^= 1;
        spend.replaceInput(0, spend.getInput(0).withWitness(TransactionWitness.of(sig, w.getPush(1))));
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(spend.serialize()));
        assertTrue(e.reason().startsWith("mandatory-script-verify-flag-failed"), e.getMessage());
    }

    @Test
    void rejectsAWitnessOnALegacyInput() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        tx.replaceInput(0, tx.getInput(0).withWitness(TransactionWitness.of(new byte[] {1})));
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(tx.serialize()));
        assertTrue(e.reason().contains("Witness provided for non-witness script"), e.getMessage());
    }

    @Test
    void rejectsSpendingAnImmatureCoinbase() {
        // Next block is 102: the coinbase of block 3 is only 99 deep.
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 3, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(tx.serialize()));
        assertEquals("bad-txns-premature-spend-of-coinbase", e.reason());
        node.mine(1);
        assertEquals(tx.getTxId(), node.submitTransaction(tx.serialize()), "mature one block later");
    }

    @Test
    void rejectsOutputsAboveInputs() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 51 * COIN);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(tx.serialize()));
        assertEquals("bad-txns-in-belowout", e.reason());
        assertTrue(e.getMessage().contains("value in (50.00) < value out (51.00)"), e.getMessage());
    }

    @Test
    void acceptsAZeroFeeTransaction() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 50 * COIN);
        assertEquals(tx.getTxId(), node.submitTransaction(tx.serialize()));
    }

    @Test
    void rejectsBytesThatAreNotATransaction() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        byte[] raw = tx.serialize();
        byte[] trailing = java.util.Arrays.copyOf(raw, raw.length + 1);
        assertEquals(
                -22,
                assertThrows(RejectedException.class, () -> node.submitTransaction(trailing))
                        .rpcCode());
        assertEquals(
                -22,
                assertThrows(RejectedException.class, () -> node.submitTransaction(new byte[] {1, 2, 3}))
                        .rpcCode());
        assertTrue(node.mempool().isEmpty());
    }

    @Test
    void rejectsACoinbaseAndAnAlreadyConfirmedTransaction() {
        Transaction cb =
                node.block(node.tipHash()).orElseThrow().getTransactions().get(0);
        assertEquals(
                "coinbase",
                assertThrows(RejectedException.class, () -> node.submitTransaction(cb.serialize()))
                        .reason());
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        node.submitTransaction(tx.serialize());
        node.mine(1);
        assertEquals(
                -27,
                assertThrows(RejectedException.class, () -> node.submitTransaction(tx.serialize()))
                        .rpcCode());
    }

    /** Core's relay policy (policy.cpp, GetDustThreshold at 3000 sat/kvB): P2PKH 546, P2WPKH 294, P2TR 330 sat. */
    @Test
    void rejectsOutputsBelowCoresDustLimitAndAcceptsThemAtIt() {
        node.mine(2); // coinbases 1..4 mature
        byte[] p2tr = new byte[34];
        p2tr[0] = 0x51;
        p2tr[1] = 0x20;
        java.util.Arrays.fill(p2tr, 2, 34, (byte) 7);
        byte[][] scripts = {Fixtures.script(Fixtures.p2pkh(bob)), Fixtures.script(Fixtures.p2wpkh(bob)), p2tr};
        long[] limits = {546, 294, 330};
        for (int k = 0; k < scripts.length; k++) {
            InputSigner.Input coin = Fixtures.coinbase(node, 1 + k, miner);
            Transaction dust = withOutputs(coin, scripts[k], limits[k] - 1);
            RejectedException e = assertThrows(RejectedException.class, () -> node.submitTransaction(dust.serialize()));
            assertEquals("dust", e.reason(), e.getMessage());
            assertEquals(-26, e.rpcCode());
            Transaction atLimit = withOutputs(coin, scripts[k], limits[k]);
            assertEquals(atLimit.getTxId(), node.submitTransaction(atLimit.serialize()), "at the limit: " + k);
        }
        // An OP_RETURN output of 0 sat is not dust.
        Transaction opReturn = withOutputs(Fixtures.coinbase(node, 4, miner), new byte[] {0x6a, 1, 42}, 0);
        assertEquals(opReturn.getTxId(), node.submitTransaction(opReturn.serialize()));
    }

    /** Pays 49 BTC to alice and {@code value} sat to {@code script}, spending {@code coin}. */
    private Transaction withOutputs(InputSigner.Input coin, byte[] script, long value) {
        Transaction tx = new Transaction();
        tx.addOutput(new org.bitcoinj.core.TransactionOutput(
                tx, org.bitcoinj.base.Coin.valueOf(49 * COIN), Fixtures.script(Fixtures.p2wpkh(alice))));
        tx.addOutput(new org.bitcoinj.core.TransactionOutput(tx, org.bitcoinj.base.Coin.valueOf(value), script));
        InputSigner.addInputs(tx, List.of(coin));
        return InputSigner.sign(tx, List.of(coin));
    }
}
