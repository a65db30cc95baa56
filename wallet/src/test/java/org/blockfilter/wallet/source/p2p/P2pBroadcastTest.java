package org.blockfilter.wallet.source.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.junit.jupiter.api.Test;

/**
 * P2pSource's broadcast against test nodes that relay as btcd, bcoin and Bitcoin Core do
 * ({@link MempoolPeer}): announce with inv, serve the getdata, and report sent only when the
 * peer showed it accepted the transaction.
 */
class P2pBroadcastTest {
    private static final long SERVES_FILTERS = Message.NODE_WITNESS | Message.NODE_COMPACT_FILTERS;
    private static final P2pSource.Options FAST =
            P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(1)).withAttempts(2);

    /** A segwit transaction (so its wtxid differs from its txid); the test nodes do not validate. */
    private static Transaction payment() {
        Transaction tx = new Transaction();
        tx.addInput(Sha256Hash.of(new byte[] {7}), 0, new ScriptBuilder().build());
        tx.replaceInput(0, tx.getInput(0).withWitness(TransactionWitness.of(new byte[71], new byte[33])));
        tx.addOutput(Coin.valueOf(50_000), ScriptBuilder.createP2WPKHOutputScript(new byte[20]));
        return tx;
    }

    private static P2pSource connect(MempoolPeer peer) {
        return P2pSource.connect(peer.address(), Chain.REGTEST, FAST);
    }

    @Test
    void aPeerThatDropsUnrequestedTransactionsStillReceivesThePaymentByInvAndGetdata() throws IOException {
        Transaction tx = payment();
        try (MempoolPeer peer = new MempoolPeer(MempoolPeer.Style.BCOIN, true, false, SERVES_FILTERS);
                P2pSource source = connect(peer)) {
            assertEquals(tx.getTxId(), source.broadcast(tx.serialize()));
            assertTrue(peer.holds(tx.getTxId()));
            assertEquals(0, peer.unrequestedTx.get());
            assertEquals(List.of(new Message.InvItem(Message.MSG_TX, tx.getTxId())), peer.announcedToUs);
        }
    }

    @Test
    void aPeerThatSentWtxidrelayIsAnnouncedTheWtxidAndItsRelayIsSeenOnASecondConnection() throws IOException {
        Transaction tx = payment();
        try (MempoolPeer peer = new MempoolPeer(MempoolPeer.Style.CORE, true, false, SERVES_FILTERS);
                P2pSource source = connect(peer)) {
            assertEquals(tx.getTxId(), source.broadcast(tx.serialize()));
            assertTrue(peer.holds(tx.getTxId()));
            assertEquals(List.of(new Message.InvItem(Message.MSG_WTX, tx.getWTxId())), peer.announcedToUs);
            // Our wtxidrelay before verack on the main connection and on the watcher. The broadcast
            // may be judged on the main connection before the peer has read the watcher's
            // wtxidrelay (it is sent before our verack, but our side finishes on the peer's), so
            // the count is awaited, not read once.
            assertEquals(2, awaitCount(peer.wtxidRelayBeforeVerack, 2, Duration.ofSeconds(5)));
            assertEquals(0, peer.unrequestedTx.get());
        }
    }

    /** The counter's value once it reaches {@code want}, or its value when {@code limit} has passed. */
    private static int awaitCount(AtomicInteger counter, int want, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (counter.get() < want && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return counter.get();
    }

    /** The message of the broadcast's NotAcceptedException; the peer holds nothing and got no unasked tx. */
    private static String notAccepted(MempoolPeer.Style style, boolean asks, boolean refuses) throws IOException {
        Transaction tx = payment();
        try (MempoolPeer peer = new MempoolPeer(style, asks, refuses, SERVES_FILTERS);
                P2pSource source = connect(peer)) {
            String message = assertThrows(NotAcceptedException.class, () -> source.broadcast(tx.serialize()))
                    .getMessage();
            assertFalse(peer.holds(tx.getTxId()));
            assertEquals(0, peer.unrequestedTx.get());
            return message;
        }
    }

    @Test
    void aRejectAfterTheGetdataIsNotAcceptedWithThePeersReason() throws IOException {
        String m = notAccepted(MempoolPeer.Style.BTCD, true, true);
        assertTrue(m.contains("rejected it: transaction already spent (code 0x42)"), m);
    }

    @Test
    void aPeerThatNeverAsksForTheTransactionDidNotTakeIt() throws IOException {
        String m = notAccepted(MempoolPeer.Style.BTCD, false, false);
        assertTrue(m.contains("did not ask for it within 1000 ms"), m);
    }

    @Test
    void aPeerThatAsksThenNeitherHoldsNorAnnouncesItIsNotAccepted() throws IOException {
        String m = notAccepted(MempoolPeer.Style.CORE, true, true);
        assertTrue(m.contains("neither serves it back nor announced it within 6000 ms"), m);
    }

    @Test
    void aPeerThatAsksWithMsgTxIsServedTheTransactionWithoutWitnesses() throws IOException {
        Transaction tx = payment();
        try (MempoolPeer peer = new MempoolPeer(MempoolPeer.Style.BTCD, true, false, SERVES_FILTERS);
                P2pSource source = connect(peer)) {
            peer.asksWithoutWitness = true;
            assertEquals(tx.getTxId(), source.broadcast(tx.serialize()));
            assertEquals(1, peer.received.size());
            Transaction served = Transaction.read(ByteBuffer.wrap(peer.received.get(0)));
            assertEquals(tx.getTxId(), served.getTxId());
            assertFalse(served.hasWitnesses());
            assertTrue(peer.received.get(0).length < tx.serialize().length);
        }
    }

    @Test
    void aTransactionThePeerAlreadyHoldsIsAcceptedWithoutAnnouncingIt() throws IOException {
        Transaction tx = payment();
        try (MempoolPeer peer = new MempoolPeer(MempoolPeer.Style.BTCD, true, false, SERVES_FILTERS);
                P2pSource source = connect(peer)) {
            peer.hold(tx.serialize());
            assertEquals(tx.getTxId(), source.broadcast(tx.serialize()));
            assertTrue(peer.announcedToUs.isEmpty());
        }
    }
}
