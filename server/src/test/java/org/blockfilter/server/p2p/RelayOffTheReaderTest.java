package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.server.node.FakeRpcNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A relayed transaction waits for the node's verdict on a relay thread, not on the peer's
 * reader: a {@code ping} sent right after a {@code tx} the node is slow to confirm is answered at
 * once (Kyoto gives a peer 5 s to answer, our accept wait is 5 s), while a {@code getdata} for the
 * transaction is still answered after the verdict and a peer's transactions reach the node in the
 * order it sent them. The node is a fake on loopback that takes every transaction and holds it in
 * its mempool only once the test lets it ({@code getrawtransaction} fails until then).
 */
class RelayOffTheReaderTest {
    private static final HexFormat HEX = HexFormat.of();

    private final CountDownLatch held = new CountDownLatch(1);
    private final List<Sha256Hash> sent = new CopyOnWriteArrayList<>();
    private final Map<Sha256Hash, String> mempool = new ConcurrentHashMap<>();
    private FakeNodeP2pServer relay;

    @BeforeEach
    void start() throws IOException {
        relay = FakeNodeP2pServer.start(
                (method, params, res) -> {
                    JsonNode param = params.path(0);
                    switch (method) {
                        case "getblockcount" -> res.put("result", 120);
                        case "sendrawtransaction" -> {
                            Transaction tx = Transaction.read(ByteBuffer.wrap(HEX.parseHex(param.asText())));
                            sent.add(tx.getTxId());
                            mempool.put(tx.getTxId(), param.asText());
                            res.put("result", tx.getTxId().toString());
                        }
                        case "getrawtransaction" -> {
                            String raw = mempool.get(Sha256Hash.wrap(param.asText()));
                            if (raw != null && held.getCount() == 0) {
                                res.put("result", raw);
                            } else {
                                FakeRpcNode.error(res, -5, "No such mempool transaction");
                            }
                        }
                        default -> {
                            // not a method of this node
                        }
                    }
                },
                Duration.ofSeconds(30));
    }

    @AfterEach
    void stop() {
        held.countDown();
        relay.close();
    }

    @Test
    void aPingAfterATransactionTheNodeIsSlowToConfirmGetsItsPongBeforeTheVerdict() {
        Transaction tx = tx(Sha256Hash.of(new byte[] {1}));
        try (TestPeer p = TestPeer.handshakeWtxidRelay(relay.server())) {
            p.send(new Message.Tx(tx.serialize()));
            p.send(new Message.Ping(7));
            Message next = p.receive(); // before the relay it was only this after the node held the tx
            assertEquals(new Message.Pong(7), assertInstanceOf(Message.Pong.class, next, "got " + next));

            held.countDown(); // the node holds it now; the getdata waits for the verdict
            p.send(new Message.GetData(List.of(new Message.InvItem(Message.MSG_WTX, tx.getWTxId()))));
            assertArrayEquals(tx.serialize(), ((Message.Tx) p.expect("tx")).raw());
        }
    }

    @Test
    void aPeersTransactionsReachTheNodeInTheOrderItSentThem() {
        held.countDown();
        Transaction parent = tx(Sha256Hash.of(new byte[] {2}));
        Transaction child = tx(parent.getTxId());
        Transaction grandchild = tx(child.getTxId());
        try (TestPeer p = TestPeer.handshake(relay.server())) {
            for (Transaction t : List.of(parent, child, grandchild)) {
                p.send(new Message.Tx(t.serialize()));
            }
            p.send(new Message.GetData(List.of(new Message.InvItem(Message.MSG_WITNESS_TX, grandchild.getTxId()))));
            assertArrayEquals(grandchild.serialize(), ((Message.Tx) p.expect("tx")).raw());
        }
        assertEquals(List.of(parent.getTxId(), child.getTxId(), grandchild.getTxId()), sent);
    }

    private static Transaction tx(Sha256Hash spends) {
        Transaction tx = new Transaction();
        tx.addInput(spends, 0, new ScriptBuilder().data(new byte[] {1, 2, 3}).build());
        tx.addOutput(Coin.valueOf(30_000), ScriptBuilder.createP2WPKHOutputScript(new ECKey()));
        return Transaction.read(ByteBuffer.wrap(tx.serialize()));
    }
}
