package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.blockfilter.privacylab.internal.adversaries.ChangeAdversary;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A no-reuse wallet in experiment 8: 25 receive ids paid once each in reverse id order (block b pays id 24 - b), then
 * its first change id (25) in block 25, each block also paying one other script. More receive ids than the wallet's
 * gap limit (20).
 */
class FetchPolicyNoReuseTest {
    private static final int RECEIVES = 25;
    private static FetchPolicyRun.World world;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build(@TempDir Path out) {
        int[][] blocks = new int[RECEIVES + 1][];
        for (int b = 0; b < RECEIVES; b++) {
            blocks[b] = new int[] {RECEIVES - 1 - b, 200 + b};
        }
        blocks[RECEIVES] = new int[] {RECEIVES, 300};
        MainnetLikeChain.Wallet w = new MainnetLikeChain.Wallet(0, RECEIVES + ProfileShapedChain.CHANGE_SLOTS, 0, 0);
        MainnetLikeChain chain = MainnetLikeChain.of(7, blocks, new int[0][], List.of(w));
        Lab lab = new Lab(7, true, out, 1, new PrintStream(PrintStream.nullOutputStream()));
        world = FetchPolicyRun.world(chain, ProfileShapedChain.WalletModel.NO_REUSE, new int[] {10}, lab, 0, null);
    }

    @Test
    void receiveKeysGoToReceiveIdsInTheOrderTheChainFirstPaysThem() {
        List<Integer> expected =
                IntStream.range(0, RECEIVES).map(i -> RECEIVES - 1 - i).boxed().toList();
        assertEquals(
                expected,
                FetchPolicyRun.receiveOrder(
                        world.chain().occ, world.chain().wallets().get(0)));
    }

    @Test
    void oneSyncFindsEveryPaymentAndTheChange() {
        assertEquals(ProfileShapedChain.WalletModel.NO_REUSE, world.model(0));
        FetchPolicyRun.Run run = FetchPolicyRun.run(
                world, world.chain().wallets().get(0), new FetchPolicyExperiment.Setting(1, "none"), tmp);
        assertTrue(run.ownAllDownloaded());
        assertEquals(RECEIVES + 1, run.matched());
        assertEquals(RECEIVES + 1, run.downloads());
        assertEquals(RECEIVES + 1, run.distinct());
        assertArrayEquals(IntStream.rangeClosed(0, RECEIVES).toArray(), run.observed1());
    }

    @Test
    void aRowCarriesTheWalletsNAndModel() {
        MainnetLikeChain.Wallet w = world.chain().wallets().get(0);
        FetchPolicyExperiment.Setting none = new FetchPolicyExperiment.Setting(1, "none");
        Object[] row = FetchPolicyExperiment.row(
                world,
                new DownloadAdversary(world.chain().occ),
                new ChangeAdversary(
                        world.chain().occ, ChangeLinks.none(world.chain().blocks())),
                0,
                w,
                none,
                tmp);
        assertEquals(10, row[2], "the wallet's N, not its script slots");
        assertEquals("no-reuse", row[FetchPolicyExperiment.MODEL_COLUMN]);
        assertEquals(RECEIVES + 1, row[FetchPolicyExperiment.MODEL_COLUMN + 1]);
    }
}
