package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * A transaction that a block takes out of the node's mempool between our {@code
 * sendrawtransaction} and our check that the node holds it (a miner on a busy regtest node, or a
 * block found in that moment) was accepted: the peer that relayed it gets no {@code reject}. The
 * node is a fake btcd without a transaction index on loopback: {@code getrawtransaction} finds
 * only mempool transactions, and every transaction sent is mined into a new block before the
 * answer.
 */
class RelayMinedMeanwhileTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final int NODE_HEIGHT = 120;

    private final List<byte[]> minedBlocks = new CopyOnWriteArrayList<>();
    private FakeNodeP2pServer relay;

    @BeforeEach
    void start() throws IOException {
        relay = FakeNodeP2pServer.start(
                (method, params, res) -> {
                    JsonNode param = params.path(0);
                    switch (method) {
                        case "getblockcount" -> res.put("result", NODE_HEIGHT + minedBlocks.size());
                        case "getblockhash" -> {
                            int i = param.asInt() - NODE_HEIGHT - 1;
                            if (i >= 0 && i < minedBlocks.size()) {
                                res.put("result", blockHash(minedBlocks.get(i)).toString());
                            } else {
                                FakeRpcNode.error(res, -1, "Block number out of range");
                            }
                        }
                        case "getblock" -> {
                            byte[] block = minedBlocks.stream()
                                    .filter(b -> blockHash(b).toString().equals(param.asText()))
                                    .findFirst()
                                    .orElse(null);
                            if (block != null) {
                                res.put("result", HEX.formatHex(block));
                            } else {
                                FakeRpcNode.error(res, -5, "Block not found");
                            }
                        }
                        case "sendrawtransaction" -> {
                            byte[] raw = HEX.parseHex(param.asText());
                            minedBlocks.add(blockOf(raw)); // accepted, and mined before we ask again
                            res.put(
                                    "result",
                                    Transaction.read(ByteBuffer.wrap(raw))
                                            .getTxId()
                                            .toString());
                        }
                        case "getrawtransaction" ->
                            FakeRpcNode.error(res, -5, "No information available about transaction");
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

    @Test
    void aRelayedTransactionMinedBeforeWeCheckTheMempoolIsAcceptedNotRejected() {
        Transaction tx = tx();
        try (TestPeer p = TestPeer.handshake(relay.server())) {
            p.send(new Message.Tx(tx.serialize()));
            // Answered after the node's verdict on the tx, which a reject would precede.
            p.send(new Message.GetData(List.of(new Message.InvItem(Message.MSG_WITNESS_TX, tx.getTxId()))));
            Message next = p.receive();
            assertArrayEquals(
                    tx.serialize(),
                    assertInstanceOf(Message.Tx.class, next, "no reject: " + next)
                            .raw());
        }
        assertEquals(1, minedBlocks.size());
        String metrics = relay.metrics();
        assertTrue(metrics.contains("blockfilter_p2p_tx_relayed_total{outcome=\"accepted\"} 1.0"), metrics);
    }

    private static Transaction tx() {
        Transaction tx = new Transaction();
        tx.addInput(
                Sha256Hash.of(new byte[] {9}),
                0,
                new ScriptBuilder().data(new byte[] {1, 2, 3}).build());
        tx.addOutput(Coin.valueOf(50_000), ScriptBuilder.createP2WPKHOutputScript(new ECKey()));
        return Transaction.read(ByteBuffer.wrap(tx.serialize()));
    }

    /** A block of a zero header (nothing here checks work or the merkle root) and the transaction. */
    private static byte[] blockOf(byte[] rawTx) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[80]);
        b.write(1);
        b.writeBytes(rawTx);
        return b.toByteArray();
    }

    private static Sha256Hash blockHash(byte[] block) {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(java.util.Arrays.copyOf(block, 80)));
    }
}
