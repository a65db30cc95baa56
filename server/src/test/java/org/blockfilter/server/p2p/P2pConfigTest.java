package org.blockfilter.server.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.blockfilter.filters.chain.Chain;
import org.junit.jupiter.api.Test;

class P2pConfigTest {

    @Test
    void eachCopyChangesOnlyItsSettings() {
        P2pConfig d = P2pConfig.forChain(Chain.REGTEST);
        P2pConfig changed = d.withHost("0.0.0.0")
                .withPort(8158)
                .withServices(1)
                .withMaxPeers(3)
                .withTimeouts(
                        Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(4))
                .withBanDuration(Duration.ofSeconds(5))
                .withFloodLimit(6, 7)
                .withSendQueueBytes(8)
                .withTipPollInterval(Duration.ofSeconds(9))
                .withSlots(new P2pConfig.Slots(1, 2, java.util.List.of()));
        assertEquals(
                new P2pConfig(
                        "0.0.0.0",
                        8158,
                        Chain.REGTEST,
                        1,
                        3,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(3),
                        Duration.ofSeconds(4),
                        Duration.ofSeconds(5),
                        6,
                        7,
                        8,
                        d.blockCacheBytes(),
                        Duration.ofSeconds(9),
                        new P2pConfig.Slots(1, 2, java.util.List.of())),
                changed);
        assertEquals("127.0.0.1", d.host(), "the original is unchanged");
    }

    @Test
    void copiesAreValidatedLikeTheConstructor() {
        P2pConfig d = P2pConfig.forChain(Chain.REGTEST);
        assertThrows(IllegalArgumentException.class, () -> d.withPort(-1));
        assertThrows(IllegalArgumentException.class, () -> d.withFloodLimit(0, 1));
        assertThrows(NullPointerException.class, () -> d.withTipPollInterval(null));
    }
}
