package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.FeeEstimate;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.testchain.MemorySource;
import org.junit.jupiter.api.Test;

/** How a payment's fee rate is chosen from the sources' estimates when none is given. */
class FeeRateChoiceTest {
    private static ChainSource estimating(String name, FeeEstimate answer) {
        return new MemorySource(name, new RegtestChainBuilder()) {
            @Override
            public FeeEstimate feeEstimate(int targetBlocks) {
                return answer;
            }
        };
    }

    private static ChainSource failing(String name) {
        return new MemorySource(name, new RegtestChainBuilder()) {
            @Override
            public FeeEstimate feeEstimate(int targetBlocks) {
                throw new SourceException(name, "connection refused");
            }
        };
    }

    @Test
    void oneEstimateIsRoundedUpAndNamedWithItsSource() {
        FeeRateChoice c = FeeRateChoice.choose(
                List.of(estimating("a", FeeEstimate.of(6, 12.3, "rest:a (estimatesmartfee, for 6 blocks)"))), 6);
        assertEquals(13, c.satPerVByte());
        assertTrue(
                c.describe().contains("13 sat/vB") && c.describe().contains("rest:a (estimatesmartfee"), c.describe());
        assertTrue(c.describe().contains("within 6 blocks"), c.describe());
    }

    @Test
    void theLowerMedianOfSeveralEstimatesIsTaken() {
        FeeRateChoice c = FeeRateChoice.choose(
                List.of(
                        estimating("a", FeeEstimate.of(3, 40, "a")),
                        estimating("b", FeeEstimate.of(3, 5, "b")),
                        estimating("c", FeeEstimate.none(3, "c has none")),
                        estimating("d", FeeEstimate.of(3, 900, "d"))),
                3);
        assertEquals(40, c.satPerVByte());
        assertEquals("a", c.chosen().detail());
        FeeRateChoice two = FeeRateChoice.choose(
                List.of(estimating("a", FeeEstimate.of(3, 40, "a")), estimating("b", FeeEstimate.of(3, 5, "b"))), 3);
        assertEquals(5, two.satPerVByte(), "of two, the lower: a fee too high cannot be undone");
        assertEquals(
                1,
                FeeRateChoice.choose(List.of(estimating("a", FeeEstimate.of(3, 0.2, "a"))), 3)
                        .satPerVByte());
    }

    @Test
    void noEstimateAnywhereSaysWhyAndToGiveFeeRate() {
        ChainSource p2p = new MemorySource("p2p:x", new RegtestChainBuilder());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> FeeRateChoice.choose(
                        List.of(
                                estimating("a", FeeEstimate.none(6, "rest:a: the node has no estimate")),
                                failing("b"),
                                p2p),
                        6));
        assertTrue(e.getMessage().contains("no fee estimate for confirmation within 6 blocks"), e.getMessage());
        assertTrue(e.getMessage().contains("the node has no estimate"), e.getMessage());
        assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
        assertTrue(e.getMessage().contains("p2p:x serves no fee estimates"), e.getMessage());
        assertTrue(e.getMessage().contains("--fee-rate"), e.getMessage());
    }

    @Test
    void anImplausibleEstimateOrTargetIsRefused() {
        IllegalArgumentException high = assertThrows(
                IllegalArgumentException.class,
                () -> FeeRateChoice.choose(List.of(estimating("a", FeeEstimate.of(6, 50_000, "a"))), 6));
        assertTrue(high.getMessage().contains("maxfeerate"), high.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FeeRateChoice.choose(List.of(), 0));
        assertThrows(IllegalArgumentException.class, () -> FeeRateChoice.choose(List.of(), 1009));
    }
}
