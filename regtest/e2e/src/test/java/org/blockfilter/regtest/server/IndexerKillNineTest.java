package org.blockfilter.regtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety: the real server ({@code ServerMain}) indexes a 300-block scenario chain from
 * the embedded node in a child JVM that is killed with SIGKILL 15 times at seeded random
 * moments (mostly while blocks are being written, some during start-up and store recovery),
 * restarted each time, and finally allowed to finish. After every kill the store holds every
 * block the child had reported committed, and a prefix of the reference chain; at the end its
 * whole content (every filter, header, block header, height entry, unspent-output script and
 * undo record) is byte-identical to an uninterrupted run's.
 */
@ExtendWith(NodeLogOnFailure.class)
class IndexerKillNineTest {
    private static final long SEED = 20_261_130L;
    private static final int KILLS = 15;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private EmbeddedNode node;

    @TempDir
    Path tmp;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void killedAtRandomMomentsTheIndexEndsByteIdenticalToAnUninterruptedRun() throws Exception {
        ScenarioSpec spec = ScenarioSpec.standard(SEED);
        node = EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()));
        GroundTruth truth = ScenarioRunner.run(node, spec);
        int finalHeight = truth.tipHeight();

        Path reference = tmp.resolve("reference");
        try (ChildServer child = ChildServer.start(node, reference)) {
            assertEquals(0, child.awaitExit(TIMEOUT), "uninterrupted run");
        }
        Sha256Hash expected;
        List<StoredBlock> referenceChain;
        try (IndexStore store = IndexStore.open(reference)) {
            assertEquals(finalHeight, store.tip().orElseThrow().height());
            expected = store.inspection().contentDigest();
            referenceChain =
                    store.activeRange(0, store.tip().orElseThrow().hash()).orElseThrow();
        }

        Path crashed = tmp.resolve("crashed");
        Random random = new Random(SEED);
        int midIndexKills = 0;
        int lastTip = -1;
        for (int kill = 0; kill < KILLS; kill++) {
            try (ChildServer child = ChildServer.start(node, crashed)) {
                if (kill % 4 == 3) {
                    // A moment during JVM start, store open or WAL recovery.
                    child.exitsWithin(Duration.ofMillis(random.nextInt(1500)));
                } else {
                    // Spread the remaining kills over the remaining blocks.
                    int span = Math.max(1, (finalHeight - 5 - lastTip) / (KILLS - kill));
                    int target = lastTip + 1 + random.nextInt(span);
                    child.awaitLine(line -> ChildServer.heightIn(line) >= target, TIMEOUT);
                    // A little further on: inside the next block's RPC calls, filter building or batch write.
                    child.exitsWithin(Duration.ofMillis(random.nextInt(40)));
                }
                child.killNine();
                int committed = child.lastBlockLogged();
                try (IndexStore store = IndexStore.open(crashed)) {
                    int tip = store.tip().map(ChainTip::height).orElse(-1);
                    assertTrue(
                            tip >= committed,
                            "kill " + kill + ": block " + committed + " was reported committed but the store's tip is "
                                    + tip);
                    assertTrue(tip >= lastTip, "kill " + kill + ": tip went back from " + lastTip + " to " + tip);
                    if (tip >= 0) {
                        assertEquals(
                                referenceChain.subList(0, tip + 1),
                                store.activeRange(0, store.tip().orElseThrow().hash())
                                        .orElseThrow(),
                                "kill " + kill + ": the store is a prefix of the reference chain");
                    }
                    if (tip > lastTip && tip < finalHeight) {
                        midIndexKills++;
                    }
                    System.out.printf(
                            "[kill-9] kill %2d: child had reported block %3d committed; store tip after recovery %3d%n",
                            kill, committed, tip);
                    lastTip = tip;
                }
            }
        }
        assertTrue(midIndexKills >= KILLS / 2, "most kills must land while blocks are being indexed: " + midIndexKills);

        try (ChildServer child = ChildServer.start(node, crashed)) {
            assertEquals(0, child.awaitExit(TIMEOUT), "run after the last kill");
        }
        try (IndexStore store = IndexStore.open(crashed)) {
            assertEquals(expected, store.inspection().contentDigest(), "byte-identical to the uninterrupted run");
        }
    }
}
