package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.regtest.mainnet.MainnetStatistics;

/**
 * Experiment 5's headline, P_h(1) of a one-address wallet against an observer that serves every download (no
 * decoys), under the three wallet and chain assumptions that move it most, one at a time: the wallet's address reuse
 * (experiment 5's reuse model against a BIP 84 wallet that never reuses), the share of young spends, and the synced
 * range in months. Each setting is measured on a chain of its own, drawn like experiment 5's
 * ({@link ProfileShapedChain}) with only that assumption moved. Stateless.
 */
final class Bip158Sensitivity {
    /** Blocks per month at one block per ten minutes (30.44 days). */
    static final double BLOCKS_PER_MONTH = 144 * 30.44;
    /** The young-spend shares measured beside the profile's {@link MainnetStatistics#YOUNG_SHARE}. */
    static final double[] YOUNG_SHARES = {0.15, 0.6};
    /** The synced ranges measured, in months (full mode; quick mode scales them to its short chain). */
    static final double[] RANGE_MONTHS = {0.5, 1, 2};

    private Bip158Sensitivity() {}

    /** One chain to build, and the label of each wallet group in it. */
    record Case(
            String factor,
            List<String> settings,
            ProfileShapedChain.Shape shape,
            ProfileShapedChain.Assumptions assumptions) {}

    /** The columns of exp5_sensitivity.csv. */
    static final String[] COLUMNS = {
        "factor",
        "setting",
        "wallet_model",
        "chain_blocks",
        "young_share",
        "wallets",
        "mean_synced_blocks",
        "mean_synced_months",
        "mean_wallet_scripts_used",
        "mean_own_blocks",
        "cooccurrence_ph1",
        "cooccurrence_lo",
        "cooccurrence_hi",
        "graph_ph1",
        "graph_lo",
        "graph_hi"
    };

    /**
     * The chains: experiment 5's (with a reuse and a no-reuse group), one per young share, and one long chain with a
     * wallet group per synced range. {@code base} is experiment 5's shape; its wallets are replaced.
     */
    static List<Case> cases(ProfileShapedChain.Shape base, boolean quick) {
        int wallets = quick ? 20 : 200;
        double young = MainnetStatistics.YOUNG_SHARE;
        List<Case> cases = new ArrayList<>();
        cases.add(new Case(
                "wallet reuse",
                List.of(
                        "exp5's model: 1 + Geometric(1/2) payments per address, change to the first input's script",
                        "none (BIP 84): a fresh receive address per payment, fresh change"),
                withWallets(base, base.blocks(), new int[] {1, 1}, new int[] {wallets, wallets}),
                new ProfileShapedChain.Assumptions(
                        young,
                        List.of(ProfileShapedChain.WalletModel.REUSE, ProfileShapedChain.WalletModel.NO_REUSE),
                        List.of())));
        for (double y : YOUNG_SHARES) {
            cases.add(new Case(
                    "share of young spends",
                    List.of(String.format(Locale.ROOT, "%.2f (exp5: %.2f)", y, young)),
                    withWallets(base, base.blocks(), new int[] {1}, new int[] {wallets}),
                    new ProfileShapedChain.Assumptions(y, List.of(), List.of())));
        }
        // Quick mode: the ranges scaled so that the longest is four of its short chains.
        double blocksPerMonth = quick ? 2.0 * base.blocks() / RANGE_MONTHS[RANGE_MONTHS.length - 1] : BLOCKS_PER_MONTH;
        List<Integer> synced = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (double m : RANGE_MONTHS) {
            int b = (int) Math.round(m * blocksPerMonth);
            synced.add(b);
            labels.add(String.format(
                    Locale.ROOT, "%d blocks (%.2f months), born at tip - range", b, b / BLOCKS_PER_MONTH));
        }
        int longest = synced.get(synced.size() - 1);
        int[] sizes = new int[synced.size()];
        int[] per = new int[synced.size()];
        Arrays.fill(sizes, 1);
        Arrays.fill(per, wallets);
        cases.add(new Case(
                "synced range",
                labels,
                withWallets(base, longest, sizes, per),
                new ProfileShapedChain.Assumptions(young, List.of(), synced)));
        return cases;
    }

    private static ProfileShapedChain.Shape withWallets(
            ProfileShapedChain.Shape s, int blocks, int[] sizes, int[] perSize) {
        return new ProfileShapedChain.Shape(
                blocks,
                s.txPerBlock(),
                s.priorOutputs(),
                s.reuseShare(),
                s.changeToSelfShare(),
                sizes,
                perSize,
                s.bytesPerElement());
    }

    /**
     * The headline adversaries' P_h(1) for a wallet of scripts [lo, hi) synced from {@code birth}, when the observer
     * serves every download and the wallet downloads exactly the blocks holding its scripts (no decoys; the false-
     * positive blocks, 0.0033 per one-address wallet in experiment 5, are left out): {co-occurrence, tx graph}.
     */
    static double[] headline(DownloadAdversary adv, Occurrences occ, int birth, int lo, int hi) {
        int[] own = ownBlocks(occ, birth, lo, hi);
        DownloadAdversary.Result r = adv.rank(own, birth, lo, hi, 1.0, true);
        return new double[] {r.cooccurrence().ph(1), r.graph().ph(1)};
    }

    /** The sorted distinct blocks at or after {@code birth} that hold a script of [lo, hi). */
    static int[] ownBlocks(Occurrences occ, int birth, int lo, int hi) {
        return java.util.stream.IntStream.range(lo, hi)
                .flatMap(s -> Arrays.stream(occ.scriptBlocks, occ.scriptStart[s], occ.scriptStart[s + 1]))
                .filter(b -> b >= birth)
                .sorted()
                .distinct()
                .toArray();
    }

    /** Builds every case's chain ({@code threads} at a time), measures its wallets, writes the CSV; returns it. */
    static Csv run(Lab lab, Path dir, ProfileShapedChain.Shape base) {
        List<Case> cases = cases(base, lab.quick());
        long blocks = cases.stream().mapToLong(c -> c.shape().blocks()).sum();
        Progress progress = new Progress(lab.log(), "exp5: sensitivity chains,", blocks);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(lab.threads(), cases.size())));
        List<Future<List<Object[]>>> rows = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            long seed = lab.seed("exp5/sensitivity", i);
            rows.add(pool.submit(() -> measure(lab, c, seed, progress)));
        }
        Csv csv = new Csv(COLUMNS);
        try {
            for (Future<List<Object[]>> f : rows) {
                for (Object[] r : f.get()) {
                    csv.row(r);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a sensitivity chain failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        csv.write(dir.resolve("exp5_sensitivity.csv"));
        return csv;
    }

    private static List<Object[]> measure(Lab lab, Case c, long seed, Progress progress) {
        ProfileShapedChain.Built built = ProfileShapedChain.build(c.shape(), c.assumptions(), seed, progress, false);
        MainnetLikeChain chain = built.chain();
        DownloadAdversary adv = new DownloadAdversary(chain.occ);
        List<Object[]> out = new ArrayList<>();
        int groups = c.shape().walletSizes().length;
        for (int g = 0; g < groups; g++) {
            List<Double> cooc = new ArrayList<>();
            List<Double> graph = new ArrayList<>();
            List<Double> synced = new ArrayList<>();
            List<Double> used = new ArrayList<>();
            List<Double> ownBlocks = new ArrayList<>();
            int first = 0;
            for (int h = 0; h < g; h++) {
                first += c.shape().walletsPerSize()[h];
            }
            for (int i = first; i < first + c.shape().walletsPerSize()[g]; i++) {
                MainnetLikeChain.Wallet w = chain.wallets().get(i);
                int lo = w.firstScript();
                int hi = lo + w.n();
                double[] ph = headline(adv, chain.occ, w.birth(), lo, hi);
                cooc.add(ph[0]);
                graph.add(ph[1]);
                synced.add((double) (chain.blocks() - w.birth()));
                int u = 0;
                for (int s = lo; s < hi; s++) {
                    u += chain.occ.scriptStart[s + 1] > chain.occ.scriptStart[s] ? 1 : 0;
                }
                used.add((double) u);
                ownBlocks.add((double) ownBlocks(chain.occ, w.birth(), lo, hi).length);
            }
            String key = c.factor() + "/" + g;
            double[] ci1 = Stats.ci(cooc, lab.seed("exp5/sensitivity/ci", key.hashCode(), 0));
            double[] ci2 = Stats.ci(graph, lab.seed("exp5/sensitivity/ci", key.hashCode(), 1));
            double meanSynced = Stats.mean(synced);
            out.add(new Object[] {
                c.factor(),
                c.settings().get(g),
                c.assumptions().model(g).name(),
                c.shape().blocks(),
                c.assumptions().youngShare(),
                cooc.size(),
                Stats.sig(meanSynced, 4),
                Stats.sig(meanSynced / BLOCKS_PER_MONTH, 3),
                Stats.sig(Stats.mean(used), 3),
                Stats.sig(Stats.mean(ownBlocks), 3),
                Stats.sig(Stats.mean(cooc), 3),
                Stats.sig(ci1[0], 3),
                Stats.sig(ci1[1], 3),
                Stats.sig(Stats.mean(graph), 3),
                Stats.sig(ci2[0], 3),
                Stats.sig(ci2[1], 3)
            });
        }
        return out;
    }

    /** The report's section: what was moved, the table, and its reading, every number from the table. */
    static void section(Report rep, Template.Sections text, Csv csv, Csv exp5Summary, ProfileShapedChain.Shape base) {
        rep.heading(text.get("sensitivity.heading").render());
        rep.paragraph(text.get("sensitivity")
                .render(Map.of(
                        "txPerBlock", Lab.count(base.txPerBlock()),
                        "youngBlocks", MainnetStatistics.YOUNG_BLOCKS,
                        "youngShare", String.format(Locale.ROOT, "%.2f", MainnetStatistics.YOUNG_SHARE),
                        "blocks", Lab.count(base.blocks()),
                        "sensitivityBlocks", lastBlocks(csv),
                        "fpPerWallet", fpPerWallet(exp5Summary))));
        rep.table(csv);
        rep.paragraph(reading(text, csv, exp5Summary));
    }

    private static String lastBlocks(Csv csv) {
        List<String> last = csv.rows().get(csv.rows().size() - 1);
        return Lab.count(Long.parseLong(last.get(3)));
    }

    private static String fpPerWallet(Csv summary) {
        for (List<String> r : summary.rows()) {
            if (r.get(0).equals("1")
                    && r.get(1).equals("1")
                    && r.get(2).equals("NONE")
                    && r.get(4).equals("co-occurrence")) {
                return r.get(7);
            }
        }
        return "n/a";
    }

    /** One sentence per row against the reuse row of experiment 5's own chain and the base row here. */
    static String reading(Template.Sections text, Csv csv, Csv exp5Summary) {
        StringBuilder sb = new StringBuilder();
        String headline = null;
        for (List<String> r : exp5Summary.rows()) {
            if (r.get(0).equals("1")
                    && r.get(1).equals("1")
                    && r.get(2).equals("NONE")
                    && r.get(4).equals("co-occurrence")) {
                headline = r.get(11) + " [" + r.get(12) + ", " + r.get(13) + "]";
            }
        }
        List<String> base = csv.rows().get(0);
        Map<String, Object> values = cells(base);
        values.put(
                "headline",
                headline == null ? "" : " " + text.get("sensitivity.headline").render(Map.of("headline", headline)));
        sb.append(text.get("sensitivity.base").render(values)).append(' ');
        double b = Double.parseDouble(base.get(10));
        double largest = 0;
        String largestFactor = "";
        for (int i = 1; i < csv.rows().size(); i++) {
            List<String> r = csv.rows().get(i);
            double v = Double.parseDouble(r.get(10));
            Map<String, Object> row = cells(r);
            row.put("factor", r.get(0));
            row.put("value", r.get(1));
            row.put("scripts", r.get(8));
            row.put("blocks", r.get(9));
            sb.append(text.get("sensitivity.row").render(row)).append(' ');
            if (Math.abs(v - b) > largest) {
                largest = Math.abs(v - b);
                largestFactor = r.get(0) + " = " + r.get(1);
            }
        }
        sb.append(text.get("sensitivity.largest")
                .render(Map.of("move", String.format(Locale.ROOT, "%.3f", largest), "at", largestFactor)));
        return sb.toString();
    }

    /** A sensitivity row's two P_h(1) columns with their intervals, by placeholder. */
    private static Map<String, Object> cells(List<String> r) {
        Map<String, Object> m = new HashMap<>();
        m.put("ph1", r.get(10));
        m.put("ph1Lo", r.get(11));
        m.put("ph1Hi", r.get(12));
        m.put("graph", r.get(13));
        m.put("graphLo", r.get(14));
        m.put("graphHi", r.get(15));
        return m;
    }
}
