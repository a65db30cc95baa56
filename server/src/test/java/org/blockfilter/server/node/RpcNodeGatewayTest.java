package org.blockfilter.server.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RpcNodeGateway against a fake Core-dialect JSON-RPC endpoint on loopback. Transaction {@code 02}
 * gets bcoin's habit: {@code sendrawtransaction} answers its txid, and the node never holds it;
 * transaction {@code 03} is held only from the fourth {@code getrawtransaction} on (validated late).
 */
class RpcNodeGatewayTest {
    private static final String KNOWN = "11".repeat(32);
    private static final String ACCEPTED = "22".repeat(32);
    private static final String REFUSED_AFTER_ANSWER = "44".repeat(32);
    private static final String HELD_LATE = "55".repeat(32);
    private final AtomicInteger lateLookups = new AtomicInteger();
    private final AtomicInteger blockCountCalls = new AtomicInteger();
    private FakeRpcNode rpc;
    private RpcNodeGateway gateway;

    @BeforeEach
    void start() throws IOException {
        rpc = FakeRpcNode.start((method, params, res) -> {
            String arg = params.path(0).asText();
            switch (method) {
                case "getblockcount" -> {
                    blockCountCalls.incrementAndGet();
                    res.put("result", 100);
                }
                case "getblockheader" -> {
                    if (arg.equals(KNOWN)) {
                        res.put("result", "00".repeat(80));
                    } else {
                        FakeRpcNode.error(res, -5, "Block not found");
                    }
                }
                case "getblock" -> {
                    if (arg.equals(KNOWN)) {
                        res.put("result", "abcd");
                    } else {
                        FakeRpcNode.error(res, -5, "Block not found");
                    }
                }
                case "sendrawtransaction" -> {
                    switch (arg) {
                        case "00" -> FakeRpcNode.error(res, -26, "min relay fee not met");
                        case "02" -> res.put("result", REFUSED_AFTER_ANSWER);
                        case "03" -> res.put("result", HELD_LATE);
                        default -> res.put("result", ACCEPTED);
                    }
                }
                case "getrawtransaction" -> {
                    if (arg.equals(ACCEPTED) || (arg.equals(HELD_LATE) && lateLookups.incrementAndGet() > 3)) {
                        res.put("result", "01");
                    } else {
                        FakeRpcNode.error(res, -5, "Transaction not found.");
                    }
                }
                default -> {
                    // not a method of this node
                }
            }
        });
        gateway = rpc.gateway(Duration.ofSeconds(1)); // room for four lookups on a loaded machine
    }

    @AfterEach
    void stop() {
        rpc.close();
    }

    @Test
    void nodeHeightIsCachedForItsTtl() {
        assertEquals(100, gateway.nodeHeight());
        assertEquals(100, gateway.nodeHeight());
        assertEquals(1, blockCountCalls.get());
    }

    @Test
    void hasBlockAndRawBlockTellKnownFromUnknown() {
        assertTrue(gateway.hasBlock(Sha256Hash.wrap(KNOWN)));
        assertFalse(gateway.hasBlock(Sha256Hash.wrap("33".repeat(32))));
        assertArrayEquals(
                new byte[] {(byte) 0xab, (byte) 0xcd},
                gateway.rawBlock(Sha256Hash.wrap(KNOWN)).orElseThrow());
        assertTrue(gateway.rawBlock(Sha256Hash.wrap("33".repeat(32))).isEmpty());
    }

    @Test
    void relayReturnsTheTxidOrTheNodesRejection() {
        assertEquals(Sha256Hash.wrap(ACCEPTED), gateway.relay(new byte[] {1}));
        NodeException e = assertThrows(NodeException.class, () -> gateway.relay(new byte[] {0}));
        assertEquals(NodeException.Kind.REJECTED, e.kind());
        assertTrue(e.getMessage().contains("min relay fee not met"));
    }

    @Test
    void aTxidAnswerForATransactionTheNodeDoesNotHoldIsARejection() {
        NodeException e = assertThrows(NodeException.class, () -> gateway.relay(new byte[] {2}));
        assertEquals(NodeException.Kind.REJECTED, e.kind());
        assertTrue(e.getMessage().contains("does not hold it"), e.getMessage());
        assertTrue(e.getMessage().contains("Transaction not found."), e.getMessage());
    }

    @Test
    void aTransactionTheNodeHoldsOnlyAfterAnsweringIsAccepted() {
        assertEquals(Sha256Hash.wrap(HELD_LATE), gateway.relay(new byte[] {3}));
        assertEquals(4, lateLookups.get());
    }

    @Test
    void unreachableNodeIsUnavailableNotRejected() {
        rpc.close();
        NodeException e = assertThrows(NodeException.class, () -> gateway.relay(new byte[] {1}));
        assertEquals(NodeException.Kind.UNAVAILABLE, e.kind());
        assertEquals(
                NodeException.Kind.UNAVAILABLE,
                assertThrows(NodeException.class, () -> gateway.hasBlock(Sha256Hash.wrap(KNOWN)))
                        .kind());
    }
}
