package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.node.EmbeddedNodeLauncher;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.junit.jupiter.api.Test;

/** The server's {@code --embedded} SPI: found by ServiceLoader, serves a deterministic demo chain. */
class EmbeddedLauncherTest {

    @Test
    void serviceLoaderFindsTheLauncherAndItServesADeterministicDemoChain() {
        EmbeddedNodeLauncher launcher = EmbeddedNodeLauncher.find().orElseThrow();
        assertInstanceOf(EmbeddedLauncher.class, launcher);
        Sha256Hash first;
        BitcoinRpc rpc;
        try (EmbeddedNodeLauncher.Handle handle = launcher.start(110, 5)) {
            assertEquals("127.0.0.1", handle.rpcUri().getHost());
            rpc = new BitcoinRpc(JsonRpcClient.create(
                    handle.rpcUri(), handle.rpcUser(), handle.rpcPassword(), Duration.ofSeconds(30)));
            assertEquals(110, rpc.blockCount());
            assertEquals("regtest", rpc.blockchainInfo().get("chain").asText());
            first = rpc.bestBlockHash();
            int txs = 0;
            for (int h = 101; h <= 110; h++) {
                txs += rpc.client()
                                .call("getblock", rpc.blockHash(h).orElseThrow().toString(), 1)
                                .get("nTx")
                                .asInt()
                        - 1;
            }
            assertTrue(txs > 0, "the demo chain has transactions once coinbases mature");
        }
        RpcException closed = assertThrows(RpcException.class, rpc::blockCount);
        assertTrue(closed.isTransportError(), "closing the handle stops the node");
        try (EmbeddedNodeLauncher.Handle again = launcher.start(110, 5)) {
            BitcoinRpc rpc2 = new BitcoinRpc(
                    JsonRpcClient.create(again.rpcUri(), again.rpcUser(), again.rpcPassword(), Duration.ofSeconds(30)));
            assertEquals(first, rpc2.bestBlockHash(), "same seed, same chain");
        }
    }

    @Test
    void rejectsANegativeChainLength() {
        assertThrows(IllegalArgumentException.class, () -> new EmbeddedLauncher().start(-1, 1));
    }
}
