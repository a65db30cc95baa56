package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;

/** The server's {@code --embedded} mode: a node on 127.0.0.1 serving a deterministic demo chain. */
class EmbeddedLauncherTest {

    @Test
    void servesADeterministicDemoChainAndClosingStopsTheNode() {
        Sha256Hash first;
        URI rpc;
        try (EmbeddedNode node = EmbeddedLauncher.start(110, 5)) {
            rpc = node.rpcUri();
            assertEquals("127.0.0.1", rpc.getHost());
            assertEquals(110, node.tipHeight());
            first = node.tipHash();
            int txs = 0;
            for (int h = 101; h <= 110; h++) {
                txs += node.block(node.blockHash(h).orElseThrow())
                                .orElseThrow()
                                .getTransactions()
                                .size()
                        - 1;
            }
            assertTrue(txs > 0, "the demo chain has transactions once coinbases mature");
        }
        assertThrows(
                IOException.class,
                () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(rpc.getHost(), rpc.getPort()), 2_000);
                    }
                },
                "closing stops the node's JSON-RPC server");
        try (EmbeddedNode again = EmbeddedLauncher.start(110, 5)) {
            assertEquals(first, again.tipHash(), "same seed, same chain");
        }
    }

    @Test
    void rejectsANegativeChainLength() {
        assertThrows(IllegalArgumentException.class, () -> EmbeddedLauncher.start(-1, 1));
    }
}
