package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.blockfilter.privacylab.internal.adversaries.ChangeAdversary;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.chains.RealChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Experiment 8's long chain: weeks of block-by-block syncs, reuse and no-reuse wallets on one chain. */
class FetchPolicyLongChainTest {
    private static final ProfileShapedChain.WalletModel REUSE = ProfileShapedChain.WalletModel.REUSE;
    private static final ProfileShapedChain.WalletModel NO_REUSE = ProfileShapedChain.WalletModel.NO_REUSE;

    @TempDir
    Path tmp;

    @Test
    void aLongSpecIsTheBlockByBlockPolicyOnTheLongChain() {
        FetchPolicyExperiment.Setting none = new FetchPolicyExperiment.Setting(1, "incremental=6,long,none");
        assertTrue(none.incremental());
        assertTrue(none.longChain());
        assertEquals(6, none.step());
        assertEquals("none", none.policySpec());
        assertEquals(FetchPolicy.NONE, none.policy());
        assertFalse(new FetchPolicyExperiment.Setting(1, "incremental=6,none").longChain());
        assertFalse(new FetchPolicyExperiment.Setting(1, "none").longChain());
        List<FetchPolicyExperiment.Setting> settings = FetchPolicyLongChain.settings();
        assertEquals(
                List.of("incremental=6,long,none", "incremental=6,long," + FetchPolicy.DEFAULT_SPEC),
                settings.stream().map(FetchPolicyExperiment.Setting::spec).toList());
        assertEquals(FetchPolicy.DEFAULT, settings.get(1).policy());
        assertFalse(settings.get(1).isDefault(), "a block-by-block row is not the default's row");
        assertTrue(settings.stream().allMatch(s -> s.sources() == 1));
        // after the grid, Tor and the short chain's block-by-block specs
        assertEquals(
                FetchPolicyExperiment.specOrder(FetchPolicyExperiment.INCREMENTAL_SPECS.get(1)) + 1,
                FetchPolicyExperiment.specOrder(settings.get(0).spec()));
    }

    @Test
    void inFullModeTheLongChainIsTwoWeeksAndEachWalletSizeOnBothModels() {
        ProfileShapedChain.Shape full = FetchPolicyLongChain.shape(false);
        assertEquals(14 * 144, full.blocks());
        assertEquals(FetchPolicyExperiment.shape(false).txPerBlock(), full.txPerBlock(), "mainnet-sized blocks");
        assertArrayEquals(new int[] {1, 10, 1, 10}, full.walletSizes());
        ProfileShapedChain.Assumptions a = FetchPolicyLongChain.assumptions(full);
        assertEquals(List.of(REUSE, REUSE, NO_REUSE, NO_REUSE), a.groupModels());
        assertEquals(Collections.nCopies(4, 14 * 144), a.groupSynced());
    }

    /** The quick long chain built: every wallet born at its first block, the models in wallet order. */
    @Test
    void everyLongChainWalletIsBornAtTheChainsStart() {
        ProfileShapedChain.Shape quick = FetchPolicyLongChain.shape(true);
        ProfileShapedChain.Assumptions a = FetchPolicyLongChain.assumptions(quick);
        MainnetLikeChain chain =
                ProfileShapedChain.build(quick, a, 3, null, false).chain();
        assertEquals(4, chain.wallets().size());
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            assertEquals(0, w.birth(), "wallet " + w.index());
        }
        assertArrayEquals(
                new ProfileShapedChain.WalletModel[] {REUSE, REUSE, NO_REUSE, NO_REUSE},
                FetchPolicyLongChain.walletModels(quick, a));
        assertArrayEquals(new int[] {1, 10, 1, 10}, FetchPolicyExperiment.walletN(quick));
        assertEquals(10, chain.wallets().get(1).n(), "a reuse wallet's slots are its N addresses");
        assertTrue(chain.wallets().get(3).n() > ProfileShapedChain.CHANGE_SLOTS, "no reuse: receives and change");
    }

    /**
     * One world, two models. Wallet 0 (reuse, script 0) and wallet 1 (no reuse, receive ids 1 and 2, change ids 3..):
     * the chain pays id 2 first (block 0), then id 1 (block 1). The reuse wallet's id 0 is its receive key 0; the
     * no-reuse wallet hands out receive key 0 to id 2 and key 1 to id 1; each row names its wallet's model.
     */
    @Test
    void aWorldOfTwoModelsKeysEachWalletByItsOwnModel() {
        int[][] blocks = {{0, 2, 100}, {1, 101}, {0, 102}};
        MainnetLikeChain chain = MainnetLikeChain.of(
                9,
                blocks,
                new int[0][],
                List.of(
                        new MainnetLikeChain.Wallet(0, 1, 0, 0),
                        new MainnetLikeChain.Wallet(1, 2 + ProfileShapedChain.CHANGE_SLOTS, 0, 1)));
        Lab lab = new Lab(9, true, tmp.resolve("lab"), 1, new PrintStream(PrintStream.nullOutputStream()));
        FetchPolicyRun.World world = FetchPolicyRun.world(
                chain, new ProfileShapedChain.WalletModel[] {REUSE, NO_REUSE}, new int[] {1, 2}, lab, 0, null);
        assertEquals(REUSE, world.model(0));
        assertEquals(NO_REUSE, world.model(1));
        String block1 = HexFormat.of().formatHex(world.real().rawBlock(1));
        String block2 = HexFormat.of().formatHex(world.real().rawBlock(2));
        assertTrue(block1.contains(script(world, 0, 0)), "reuse: id 0 is receive key 0");
        assertTrue(block1.contains(script(world, 1, 0)), "no reuse: id 2, paid first, is receive key 0");
        assertTrue(block2.contains(script(world, 1, 1)), "no reuse: id 1, paid next, is receive key 1");
        assertFalse(block1.contains(script(world, 1, 1)));

        FetchPolicyExperiment.Setting none = new FetchPolicyExperiment.Setting(1, "none");
        List<String> models = new ArrayList<>();
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            Object[] row = FetchPolicyExperiment.row(
                    world,
                    new DownloadAdversary(chain.occ),
                    new ChangeAdversary(chain.occ, ChangeLinks.none(chain.blocks())),
                    0,
                    w,
                    none,
                    tmp);
            models.add((String) row[FetchPolicyExperiment.MODEL_COLUMN]);
            assertEquals(world.walletN()[w.index()], row[2]);
        }
        assertEquals(List.of("reuse", "no-reuse"), models);
    }

    /** The P2WPKH script of wallet {@code w}'s receive key {@code i}, in hex. */
    private static String script(FetchPolicyRun.World world, int w, int i) {
        return HexFormat.of()
                .formatHex(RealChain.p2wpkh(world.accounts()[w].key(false, i).getPubKey()));
    }

    /** A raw row: wallet, chain, N, spec, model, every adversary's P_h(1) {@code ph1}, distinct downloads. */
    private static Object[] raw(int wallet, int n, String spec, String model, double ph1, int distinct) {
        List<Object> r = new ArrayList<>(List.of(wallet, 0, n, 0, 1, spec, 2, 2, 4, 2, 2.0, 1.0, 1.0, 4, 1.0));
        for (int a = 0; a < FetchPolicyAdversaries.NAMES.size(); a++) {
            r.add(ph1);
        }
        for (int a = 0; a < FetchPolicyAdversaries.NAMES.size(); a++) {
            r.add(1.0);
        }
        r.add(model);
        r.add(distinct);
        return r.toArray();
    }

    private static Csv rawRows() {
        Csv raw = new Csv(FetchPolicyExperiment.header().toArray(String[]::new));
        String longNone = FetchPolicyExperiment.LONG_SPECS.get(0);
        raw.row(raw(0, 1, "none", "reuse", 1.0, 2));
        raw.row(raw(0, 1, FetchPolicyExperiment.INCREMENTAL_SPECS.get(0), "reuse", 1.0, 2));
        // the long chain's wallet 0 is another wallet than the main chain's wallet 0
        raw.row(raw(0, 1, longNone, "reuse", 1.0, 3));
        raw.row(raw(1, 1, longNone, "reuse", 0.0, 3));
        raw.row(raw(2, 1, longNone, "no-reuse", 0.0, 3));
        return raw;
    }

    @Test
    void theLongChainsRowsAreSummarisedApartPerModel() {
        Csv raw = rawRows();
        assertEquals(2, FetchPolicyTables.ofLongChain(raw, false).rows().size());
        assertEquals(3, FetchPolicyTables.ofLongChain(raw, true).rows().size());
        Lab lab = new Lab(1, true, tmp, 1, new PrintStream(PrintStream.nullOutputStream()));
        Csv summary = FetchPolicyTables.longSummary(lab, raw);
        int adversaries = FetchPolicyAdversaries.NAMES.size();
        assertEquals(2 * adversaries, summary.rows().size(), "one (N, policy) per model, every adversary");
        List<String> reuse = summary.rows().get(0);
        assertEquals(List.of("reuse", "1", "1", FetchPolicyExperiment.LONG_SPECS.get(0), ""), reuse.subList(0, 5));
        assertEquals("2", reuse.get(6), "two reuse wallets");
        assertEquals("0.5", reuse.get(13), "P_h(1) 1 and 0: mean 0.5");
        assertEquals("no-reuse", summary.rows().get(adversaries).get(0));

        Csv table = FetchPolicyTables.longTable(summary);
        assertEquals(2, table.rows().size());
        assertEquals(
                List.of("1", "reuse", "none", "2", "2.0 [2.0, 2.0]", "1.5"),
                table.rows().get(0).subList(0, 6));
        assertTrue(
                table.rows().get(0).get(6).startsWith("0.5 ["),
                table.rows().get(0).get(6));
        assertEquals(List.of("1", "no reuse", "none", "1"), table.rows().get(1).subList(0, 4));
        assertTrue(
                table.rows().get(1).get(6).startsWith("0.0 ["),
                table.rows().get(1).get(6));
    }

    /** The long chain's wallet 0 (3 distinct downloads) is not paired with the main chain's wallet 0 (2 and 2). */
    @Test
    void theDistinctDownloadsCheckPairsOnlyTheMainChainsSyncs() {
        assertArrayEquals(new int[] {1, 1}, FetchPolicyTables.sameDistinct(rawRows()));
    }
}
