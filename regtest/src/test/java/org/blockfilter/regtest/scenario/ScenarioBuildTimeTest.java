package org.blockfilter.regtest.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Times the 300-block standard scenario on btcd and on the embedded node for
 * docs/benchmarks.md. Measures, asserts no speed; only when {@code BLOCKFILTER_TIME_SCENARIO=true}.
 */
@EnabledIfEnvironmentVariable(named = "BLOCKFILTER_TIME_SCENARIO", matches = "true")
class ScenarioBuildTimeTest {
    private static final ScenarioSpec SPEC = ScenarioSpec.standard(20_261_130L);

    @Test
    void timeOnBtcd() {
        try (BtcdNode node =
                BtcdNode.start(BtcdOptions.of(SPEC.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()))) {
            time(node);
        }
    }

    @Test
    void timeOnEmbedded() {
        try (EmbeddedNode node =
                EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(SPEC.miningAddress()))) {
            time(node);
        }
    }

    private static void time(RegtestNode node) {
        long start = System.nanoTime();
        GroundTruth truth = ScenarioRunner.run(node, SPEC, line -> {});
        System.err.printf(
                "[time] %s: %d blocks, %d scenario transactions in %.1f s%n",
                node.name(), truth.tipHeight(), truth.transactions().size(), (System.nanoTime() - start) / 1e9);
        assertTrue(truth.tipHeight() >= SPEC.blocks());
    }
}
