package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.p2p.P2pTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The wallet's P2P transports against btcd 0.26, an implementation we did not write: without
 * {@code --v2transport} (its default) btcd reads our BIP 324 key as a v1 frame with a wrong magic
 * and disconnects, so v2-only fails with that said and the default (auto) falls back to v1; with
 * {@code --v2transport} btcd speaks BIP 324 and v2-only syncs. Either way the filters equal
 * btcd's own.
 */
@ExtendWith(NodeLogOnFailure.class)
class P2pTransportBtcdTest {
    private static final P2pSource.Options OPTIONS = P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10));
    private BtcdNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private void startBtcd(List<String> extraArgs) {
        ScenarioSpec spec = ScenarioSpec.small(20_261_205L, 5);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress())
                .withBinary(BtcdTestSupport.binaryOrSkip())
                .withExtraArgs(extraArgs));
        ScenarioRunner.run(node, spec);
    }

    private void assertServesBtcdsFilters(P2pTransport transport) {
        try (P2pSource source =
                P2pSource.connect(node.p2pAddress().orElseThrow(), Chain.REGTEST, OPTIONS.withTransport(transport))) {
            int tip = node.tipHeight();
            assertEquals(tip, source.tipHeight());
            int start = Math.max(0, tip - 50);
            List<ChainSource.BlockFilterBytes> filters =
                    source.filters(start, node.blockHash(tip).orElseThrow());
            assertEquals(tip - start + 1, filters.size());
            for (int i = 0; i < filters.size(); i++) {
                Sha256Hash hash = node.blockHash(start + i).orElseThrow();
                assertEquals(hash, filters.get(i).blockHash());
                assertArrayEquals(node.cfilter(hash), filters.get(i).filter(), "filter at " + (start + i));
            }
        }
    }

    @Test
    void withoutV2TransportBtcdRefusesV2AndAutoFallsBackToV1() {
        startBtcd(List.of());
        SourceException e = assertThrows(
                SourceException.class,
                () -> P2pSource.connect(
                                node.p2pAddress().orElseThrow(),
                                Chain.REGTEST,
                                OPTIONS.withAttempts(1).withTransport(P2pTransport.V2))
                        .close());
        assertTrue(e.getMessage().contains("v2"), e.getMessage());
        assertServesBtcdsFilters(P2pTransport.AUTO);
    }

    @Test
    void withV2TransportBtcdServesUsOverBip324() {
        startBtcd(List.of("--v2transport"));
        assertServesBtcdsFilters(P2pTransport.V2);
    }
}
