package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import org.blockfilter.filters.chain.Chain;
import org.junit.jupiter.api.Test;

class TransportsTest {
    @Test
    void aPeerWithoutAPortUsesTheNetworksP2pPort() {
        assertEquals(48333, Transports.peerAddress("127.0.0.1", Chain.TESTNET4).getPort());
        assertEquals(8333, Transports.peerAddress("127.0.0.1", Chain.MAINNET).getPort());
        assertEquals(38333, Transports.peerAddress("[::1]", Chain.SIGNET).getPort());
        assertEquals(18444, Transports.peerAddress("::1", Chain.REGTEST).getPort());
    }

    @Test
    void aPeerWithAPortUsesIt() {
        assertEquals(
                InetSocketAddress.createUnresolved("127.0.0.1", 8158),
                Transports.peerAddress("127.0.0.1:8158", Chain.REGTEST));
        assertEquals(
                InetSocketAddress.createUnresolved("::1", 8158), Transports.peerAddress("[::1]:8158", Chain.REGTEST));
    }

    @Test
    void aBadPeerIsNamed() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Transports.peerAddress("127.0.0.1:x", Chain.REGTEST));
        assertEquals("--peer port must be 1..65535, got 'x' in 127.0.0.1:x", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Transports.peerAddress(":18444", Chain.REGTEST));
        assertEquals("--peer must be host[:port], got ':18444'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Transports.peerAddress("h:70000", Chain.REGTEST));
    }
}
