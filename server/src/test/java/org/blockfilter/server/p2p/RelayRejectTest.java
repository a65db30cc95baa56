package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.server.node.FakeRpcNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code reject} for a segwit transaction the node refuses names it the way the peer names
 * transactions: by wtxid to a peer that sent {@code wtxidrelay} (BIP 339; BDK's Kyoto client
 * disconnects on a reject whose hash is not a wtxid it sent), by txid to any other (BIP 61;
 * bitcoinj and neutrino match the txid). The node is a fake on loopback that refuses every
 * transaction.
 */
class RelayRejectTest {
    private static final String REFUSAL = "bad-txns-inputs-missingorspent";

    private FakeNodeP2pServer relay;

    @BeforeEach
    void start() throws IOException {
        relay = FakeNodeP2pServer.start(
                (method, params, res) -> {
                    switch (method) {
                        case "getblockcount" -> res.put("result", 120);
                        case "sendrawtransaction" -> FakeRpcNode.error(res, -26, REFUSAL);
                        default -> {
                            // not a method of this node
                        }
                    }
                },
                Duration.ofMillis(300));
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    /** By wtxid to a peer that sent wtxidrelay, by txid to one that did not. */
    @ParameterizedTest(name = "wtxidrelay sent: {0}")
    @ValueSource(booleans = {true, false})
    void aRefusedSegwitTransactionIsRejectedByTheIdThePeerRelaysBy(boolean wtxidRelay) {
        Transaction tx = segwitTx();
        try (TestPeer p =
                wtxidRelay ? TestPeer.handshakeWtxidRelay(relay.server()) : TestPeer.handshake(relay.server())) {
            p.send(new Message.Tx(tx.serialize()));
            Message.Reject reject = (Message.Reject) p.expect("reject");
            assertEquals(wtxidRelay ? tx.getWTxId() : tx.getTxId(), reject.data());
            assertEquals("tx", reject.rejectedCommand());
            assertEquals(0x10, reject.code());
            assertTrue(reject.reason().contains(REFUSAL), reject.reason());
        }
    }

    /**
     * Our wallet's barrier after its announcement: a {@code getdata} and a {@code ping} after the
     * {@code tx} are answered after the node's verdict, so the reject comes first.
     */
    @Test
    void theRejectComesBeforeTheAnswersToALaterGetdataAndPing() {
        Transaction tx = segwitTx();
        try (TestPeer p = TestPeer.handshakeWtxidRelay(relay.server())) {
            p.send(new Message.Tx(tx.serialize()));
            Message.InvItem item = new Message.InvItem(Message.MSG_WTX, tx.getWTxId());
            p.send(new Message.GetData(List.of(item)));
            p.send(new Message.Ping(9));
            assertEquals(tx.getWTxId(), ((Message.Reject) p.expect("reject")).data());
            assertEquals(new Message.NotFound(List.of(item)), p.expect("notfound"));
            assertEquals(new Message.Pong(9), p.expect("pong"));
        }
    }

    /** A transaction spending a segwit output: its wtxid differs from its txid. */
    static Transaction segwitTx() {
        Transaction tx = new Transaction();
        tx.addInput(Sha256Hash.of(new byte[] {7}), 0, ScriptBuilder.createEmpty());
        tx.replaceInput(0, tx.getInput(0).withWitness(TransactionWitness.of(new byte[71], new byte[33])));
        tx.addOutput(Coin.valueOf(40_000), ScriptBuilder.createP2WPKHOutputScript(new ECKey()));
        Transaction read = Transaction.read(ByteBuffer.wrap(tx.serialize()));
        assertNotEquals(read.getTxId(), read.getWTxId());
        return read;
    }
}
