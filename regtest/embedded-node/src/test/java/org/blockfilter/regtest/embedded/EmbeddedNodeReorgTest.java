package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.regtest.embedded.internal.OutPoint;
import org.blockfilter.regtest.embedded.internal.UtxoEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reorgs: invalidation, longer branches from this node and from another, undo of the UTXO set. */
class EmbeddedNodeReorgTest {
    private static final long COIN = 100_000_000L;
    private final ECKey miner = Fixtures.key("miner");
    private final ECKey alice = Fixtures.key("alice");
    private EmbeddedNode node;

    @BeforeEach
    void mineMatureCoinbases() {
        node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner));
        node.mine(101);
    }

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void invalidatingABlockRestoresTheUtxoSetAndReturnsItsTransactionsToTheMempool() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        Map<OutPoint, UtxoEntry> before = node.chain().utxoSnapshot();
        Sha256Hash tipBefore = node.tipHash();
        node.submitTransaction(tx.serialize());
        Sha256Hash block = node.mine(1).get(0);
        assertNotEquals(before, node.chain().utxoSnapshot());

        node.invalidateBlock(block);
        assertEquals(tipBefore, node.tipHash());
        assertEquals(before, node.chain().utxoSnapshot());
        assertEquals(List.of(tx.getTxId()), node.mempool());

        // A longer valid branch takes the transaction again; the invalidated block stays out.
        List<Sha256Hash> branch = node.mine(2);
        assertEquals(102 + 1, node.tipHeight());
        assertTrue(node.mempool().isEmpty());
        assertTrue(node.chain().utxo(new OutPoint(tx.getTxId(), 0)).isPresent());
        assertEquals(branch.get(1), node.tipHash());
        assertFalse(node.chain().onBestChain(node.chain().block(block).orElseThrow()));
    }

    @Test
    void reconsideringABlockMakesItsChainEligibleAgain() {
        Sha256Hash a = node.mine(1).get(0);
        node.invalidateBlock(a);
        assertEquals(101, node.tipHeight());
        node.reconsiderBlock(a);
        assertEquals(a, node.tipHash());
    }

    @Test
    void reorgReplacesTheLastBlocksWithALongerBranchAndRequeuesDroppedTransactions() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 2, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        node.submitTransaction(tx.serialize());
        Sha256Hash dropped = node.mine(1).get(0);
        node.mine(1);
        List<Sha256Hash> branch = node.reorg(2, 3);
        assertEquals(3, branch.size());
        assertEquals(104, node.tipHeight());
        assertEquals(branch.get(2), node.tipHash());
        assertFalse(node.chain().onBestChain(node.chain().block(dropped).orElseThrow()));
        assertEquals(List.of(tx.getTxId()), node.mempool(), "the dropped block's transaction is back in the mempool");
        assertFalse(node.chain().utxo(new OutPoint(tx.getTxId(), 0)).isPresent());
        assertThrows(IllegalArgumentException.class, () -> node.reorg(2, 2));
        assertThrows(IllegalArgumentException.class, () -> node.reorg(0, 2));
    }

    @Test
    void aLongerBranchSubmittedFromAnotherNodeWinsAndTheUtxoSetsMatch() {
        try (EmbeddedNode other = Fixtures.node(SettableClock.at(Fixtures.T0.plusSeconds(7)), Fixtures.p2wpkh(alice))) {
            for (int h = 1; h <= 101; h++) {
                other.submitBlock(node.rawBlock(node.blockHash(h).orElseThrow()).orElseThrow());
            }
            assertEquals(node.tipHash(), other.tipHash());
            Transaction tx = Fixtures.pay(Fixtures.coinbase(node, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
            node.submitTransaction(tx.serialize());
            node.mine(1);
            other.mine(2);
            for (int h = 102; h <= 103; h++) {
                node.submitBlock(
                        other.rawBlock(other.blockHash(h).orElseThrow()).orElseThrow());
            }
            assertEquals(other.tipHash(), node.tipHash());
            assertEquals(other.chain().utxoSnapshot(), node.chain().utxoSnapshot());
            assertEquals(List.of(tx.getTxId()), node.mempool());
        }
    }

    @Test
    void aBranchWithEqualWorkDoesNotReplaceTheFirstSeenTip() {
        try (EmbeddedNode other = Fixtures.node(SettableClock.at(Fixtures.T0.plusSeconds(7)), Fixtures.p2wpkh(alice))) {
            for (int h = 1; h <= 101; h++) {
                other.submitBlock(node.rawBlock(node.blockHash(h).orElseThrow()).orElseThrow());
            }
            Sha256Hash mine = node.mine(1).get(0);
            other.mine(1);
            node.submitBlock(other.rawBlock(other.tipHash()).orElseThrow());
            assertEquals(mine, node.tipHash());
        }
    }
}
