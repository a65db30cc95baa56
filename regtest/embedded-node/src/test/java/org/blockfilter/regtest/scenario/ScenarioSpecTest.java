package org.blockfilter.regtest.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioSpecTest {

    @Test
    void miningAddressFollowsTheSeed() {
        assertEquals(
                ScenarioSpec.standard(1).miningAddress(),
                ScenarioSpec.small(1, 5).miningAddress());
        assertNotEquals(
                ScenarioSpec.standard(1).miningAddress(),
                ScenarioSpec.standard(2).miningAddress());
        assertEquals("bcrt", ScenarioSpec.standard(1).miningAddress().toString().substring(0, 4));
    }

    @Test
    void rejectsReorgsDeeperThanCoinbaseMaturity() {
        assertThrows(IllegalArgumentException.class, () -> new ScenarioSpec.Reorg(300, ScenarioSpec.COINBASE_MATURITY));
        assertThrows(IllegalArgumentException.class, () -> new ScenarioSpec.Reorg(300, 0));
        assertThrows(IllegalArgumentException.class, () -> new ScenarioSpec.Reorg(3, 3));
    }

    @Test
    void rejectsInconsistentParameters() {
        ScenarioSpec spec = ScenarioSpec.standard(1);
        assertThrows(IllegalArgumentException.class, () -> spec.withTxsPerBlock(5, 4));
        assertThrows(IllegalArgumentException.class, () -> spec.withEmptyBlockRate(1.5));
        assertThrows(IllegalArgumentException.class, () -> spec.withAddressReuseRate(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> spec.withWallets(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> spec.withReorgs(List.of(new ScenarioSpec.Reorg(150, 2), new ScenarioSpec.Reorg(150, 3))));
    }

    @Test
    void reorgsAreKeptInHeightOrder() {
        ScenarioSpec spec = ScenarioSpec.standard(1)
                .withReorgs(List.of(new ScenarioSpec.Reorg(250, 2), new ScenarioSpec.Reorg(150, 3)));
        assertEquals(150, spec.reorgs().get(0).atHeight());
    }
}
