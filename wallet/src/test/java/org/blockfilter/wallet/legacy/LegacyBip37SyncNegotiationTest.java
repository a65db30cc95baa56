package org.blockfilter.wallet.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.params.RegTestParams;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Legacy BIP 37 sync from a node that sends one of today's feature-negotiation messages first,
 * each where real nodes send it (between {@code version} and {@code verack} for BIP 155, 339 and
 * 330; after {@code verack} for BIP 152 and 133) and, to be sure position does not matter, at the
 * other place too, except {@code feefilter}: bitcoinj's {@code Peer} refuses every message it knows
 * but {@code version}, {@code verack} and {@code sendaddrv2} before the handshake, and nodes send
 * {@code feefilter} only once the handshake is done.
 */
class LegacyBip37SyncNegotiationTest {
    private static final int BLOCKS = 5;
    /**
     * Five coinbase-only blocks take well under a second; a connection killed by the message
     * never finishes, so the bound only has to be generous for a loaded machine.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    static Stream<Arguments> messages() {
        return Stream.of(
                        // BIP 152: announce (bool) = 0, version (uint64) = 2, as Bitcoin Core sends it.
                        Arguments.of("sendcmpct", "000200000000000000", false),
                        // BIP 339: empty, before verack.
                        Arguments.of("wtxidrelay", "", true),
                        // BIP 155: empty, before verack.
                        Arguments.of("sendaddrv2", "", true),
                        // BIP 133: feerate (int64, sat/kvB) = 1000.
                        Arguments.of("feefilter", "e803000000000000", false),
                        // BIP 330: version (uint32) = 1, salt (uint64), before verack.
                        Arguments.of("sendtxrcncl", "01000000" + "0123456789abcdef", true))
                .flatMap(a -> a.get()[0].equals("feefilter")
                        ? Stream.of(a)
                        : Stream.of(a, Arguments.of(a.get()[0], a.get()[1], !(Boolean) a.get()[2])));
    }

    @ParameterizedTest(name = "{0} before verack: {2}")
    @MethodSource("messages")
    void syncsToTheTipAfterTheMessage(String command, String payloadHex, boolean beforeVerack) throws Exception {
        try (Bip37TestPeer peer =
                new Bip37TestPeer(BLOCKS, command, HexFormat.of().parseHex(payloadHex), beforeVerack)) {
            LegacyBip37Sync.Result r = LegacyBip37Sync.sync(
                    RegTestParams.get(),
                    peer.address(),
                    List.of(new ECKey()),
                    List.of(),
                    PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE,
                    TIMEOUT);
            assertEquals(peer.height(), r.tipHeight());
            assertEquals(BLOCKS, r.filteredBlocks(), "one merkleblock per block");
            assertTrue(r.matchedByBlock().isEmpty(), "a fresh key matches nothing");
            assertEquals(1, peer.connections(), "the first connection lasted");
        }
    }
}
