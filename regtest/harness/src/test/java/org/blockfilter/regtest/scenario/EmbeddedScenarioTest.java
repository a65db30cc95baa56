package org.blockfilter.regtest.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scenario runner drives the embedded node through the same interface as btcd, and btcd
 * accepts every block of the embedded node's scenario chain (so the embedded node's blocks and
 * the scenario's signed transactions are valid to an independent implementation).
 */
@ExtendWith(NodeLogOnFailure.class)
class EmbeddedScenarioTest {
    private EmbeddedNode embedded;
    private BtcdNode btcd;

    @AfterEach
    void stop() {
        if (embedded != null) {
            embedded.close();
        }
        if (btcd != null) {
            btcd.close();
        }
    }

    @Test
    void runsOnTheEmbeddedNodeWithAReorg() {
        ScenarioSpec spec = ScenarioSpec.small(11, 25).withReorgs(List.of(new ScenarioSpec.Reorg(115, 4)));
        embedded = EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()));
        GroundTruth truth = ScenarioRunner.run(embedded, spec, line -> {});
        assertEquals(embedded.tipHash(), truth.tipHash());
        assertEquals(1, truth.reorgs().size());
        assertTrue(
                truth.transactions().size() > 20,
                "transactions: " + truth.transactions().size());
    }

    @Test
    void btcdAcceptsEveryBlockOfTheEmbeddedScenarioChain() {
        // 160 blocks keep the module's test time down; the 300-block build is timed in docs/benchmarks.md.
        ScenarioSpec spec =
                ScenarioSpec.standard(5).withBlocks(160).withReorgs(List.of(new ScenarioSpec.Reorg(130, 3)));
        embedded = EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()));
        GroundTruth truth = ScenarioRunner.run(embedded, spec, line -> {});
        btcd = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        for (int height = 1; height <= truth.tipHeight(); height++) {
            Sha256Hash hash = truth.blockHashes().get(height);
            btcd.submitBlock(embedded.rawBlock(hash).orElseThrow());
        }
        assertEquals(truth.tipHash(), btcd.tipHash());
        assertEquals(truth.tipHeight(), btcd.tipHeight());
    }
}
