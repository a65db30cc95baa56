package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.embedded.internal.BlockEntry;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test that keeps the embedded node honest: btcd, a real full node, accepts every block the
 * embedded node mined for a scenario chain (every output kind, segwit spends, a reorg), in the
 * order the embedded node saw them, stale branch included, and ends on the same tip. Skips when
 * btcd is unavailable, fails instead with CI=true or BLOCKFILTER_REQUIRE_BTCD=true.
 */
@ExtendWith(NodeLogOnFailure.class)
class EmbeddedNodeBtcdHonestyTest {
    private EmbeddedNode node;
    private BtcdNode btcd;

    @AfterEach
    void stop() {
        if (btcd != null) {
            btcd.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void btcdAcceptsEveryBlockOfAnEmbeddedScenarioChainAndEndsOnTheSameTip() {
        ScenarioSpec spec = ScenarioSpec.small(20_261_130L, 60).withReorgs(List.of(new ScenarioSpec.Reorg(150, 3)));
        SettableClock clock = SettableClock.at(DemoChain.START);
        node = DemoChain.startFor(spec, EmbeddedNode.Config.defaults(), clock);
        GroundTruth truth = DemoChain.build(node, clock, spec, line -> {});
        assertEquals(1, truth.reorgs().size(), "the scenario's reorg happened on the embedded node");

        List<BlockEntry> blocks = node.chain().allBlocks();
        int witnessTxs = 0;
        for (BlockEntry e : blocks) {
            Block b = e.block();
            if (e.height() > 0) {
                Block.verifyTransactions(
                        RegtestNode.PARAMS, b, e.height(), EnumSet.of(Block.VerifyFlag.HEIGHT_IN_COINBASE));
            }
            for (Transaction tx :
                    b.getTransactions().subList(1, b.getTransactions().size())) {
                witnessTxs += tx.hasWitnesses() ? 1 : 0;
            }
        }
        assertTrue(blocks.size() > node.tipHeight() + 1, "the stale branch is kept and submitted too");
        assertTrue(witnessTxs > 50, "segwit spends in the chain: " + witnessTxs);

        btcd = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        for (BlockEntry e : blocks) {
            if (e.height() > 0) {
                btcd.submitBlock(e.raw()); // throws with btcd's reason and log tail if rejected
            }
        }
        assertEquals(node.tipHeight(), btcd.tipHeight());
        assertEquals(node.tipHash(), btcd.tipHash());
        assertEquals(node.blockHash(100), btcd.blockHash(100));
    }
}
