package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.blockfilter.filters.Bip158;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.regtest.mainnet.MainnetStatistics;

/** The report of experiment 5 (Markdown + HTML), written from its tables. Stateless. */
final class Bip158Report {
    private Bip158Report() {}

    static void write(
            Lab lab,
            Path dir,
            MainnetLikeChain chain,
            ProfileShapedChain.Shape shape,
            ProfileShapedChain.Stats stats,
            double buildSeconds,
            Csv fpRate,
            Csv summary,
            Csv bip37,
            List<String> plots,
            Csv sensitivity) {
        MainnetLikeChain.Params p = chain.params;
        Occurrences o = chain.occ;
        Template.Sections text = Template.load("exp5.txt");
        Report rep = lab.report(dir, text, "exp5");
        rep.heading("Setup (every assumption)");
        long filterBytes = chain.filterBytes(0);
        long elements = o.blockStart[o.blocks];
        int[] perBlock = new int[o.blocks];
        for (int b = 0; b < o.blocks; b++) {
            perBlock[b] = o.elements(b);
        }
        Arrays.sort(perBlock);
        long clustered = 0;
        for (int c = 0; c < o.clusters; c++) {
            if (o.clusterStart[c + 1] - o.clusterStart[c] > 1) {
                clustered += o.clusterStart[c + 1] - o.clusterStart[c];
            }
        }
        List<String> wallets = new ArrayList<>();
        for (int i = 0; i < p.walletSizes().length; i++) {
            wallets.add(text.get("wallets").render(Map.of("count", p.walletsPerSize()[i], "n", p.walletSizes()[i])));
        }
        double perBlockTx = (double) stats.txs() / o.blocks;
        double nonCoinbase = stats.txs() - o.blocks;
        Map<String, Object> setup = new HashMap<>();
        setup.put("blocks", p.blocks());
        setup.put("seed", lab.seed());
        setup.put("quickNote", lab.quick() ? ", QUICK mode: small" : "");
        setup.put("buildSeconds", String.format(Locale.ROOT, "%.0f", buildSeconds));
        setup.put("txPerBlock", Lab.count(shape.txPerBlock()));
        setup.put("changeToSelf", shape.changeToSelfShare());
        setup.put("reusers", Lab.count(MainnetStatistics.REUSERS));
        setup.put("reuseShare", shape.reuseShare());
        setup.put("youngPercent", Math.round(100 * MainnetStatistics.YOUNG_SHARE));
        setup.put("youngBlocks", MainnetStatistics.YOUNG_BLOCKS);
        setup.put("txPerBlockGenerated", String.format(Locale.ROOT, "%.0f", perBlockTx));
        setup.put("inputsPerTx", String.format(Locale.ROOT, "%.2f", stats.inputs() / nonCoinbase));
        setup.put("outputsPerTx", String.format(Locale.ROOT, "%.2f", (stats.outputs() - o.blocks) / nonCoinbase));
        setup.put("elementsPerBlock", elements / o.blocks);
        setup.put("medianElements", perBlock[o.blocks / 2]);
        setup.put("p5Elements", perBlock[o.blocks / 20]);
        setup.put("p95Elements", perBlock[o.blocks - 1 - o.blocks / 20]);
        setup.put("priorOutputs", Lab.count(shape.priorOutputs()));
        setup.put("priorSpends", Lab.count(stats.priorSpends()));
        setup.put("inputs", Lab.count(stats.inputs()));
        setup.put("clustered", Lab.count(clustered));
        setup.put("scripts", Lab.count(o.scripts));
        setup.put("wallets", String.join(", ", wallets));
        setup.put("walletTxs", Lab.count(stats.walletTxs()));
        setup.put("multiInput", chain.walletMultiInputSpends);
        setup.put("changeBack", Lab.count(stats.walletChangeToSelf()));
        setup.put("filterBytes", Lab.count(filterBytes));
        setup.put("bitsPerElement", String.format(Locale.ROOT, "%.2f", 8.0 * filterBytes / elements));
        setup.put("bytesPerElement", p.bytesPerElement());
        rep.bullets(text.get("setup").lines(setup));

        rep.heading("Adversaries");
        rep.bullets(text.get("adversaries").lines(Map.of()));

        rep.heading("False-positive rate of the real filters");
        rep.table(fpRate);
        StringBuilder fp = new StringBuilder(text.get("fp").render()).append(' ');
        for (List<String> r : fpRate.rows()) {
            double expected = Double.parseDouble(r.get(1)) / Bip158.BASIC_M;
            double z = (Double.parseDouble(r.get(2)) - expected) / Math.sqrt(expected);
            fp.append(text.get("fp.filter")
                            .render(Map.of(
                                    "filter", r.get(0),
                                    "matches", r.get(2),
                                    "expected", String.format(Locale.ROOT, "%.1f", expected),
                                    "z", String.format(Locale.ROOT, "%.1f", z))))
                    .append(' ');
        }
        rep.paragraph(fp.toString());

        rep.heading("Results: P_h(1) by adversary");
        rep.table(headline(summary, 1));
        rep.paragraph(reading(text, summary));
        for (String f : plots) {
            rep.image(f, f);
        }
        rep.heading("All cells (P_h(1) and P_h(N) with 95% intervals)");
        rep.table(summary);
        rep.heading("BIP 37 on the same axes");
        rep.table(bip37);
        rep.paragraph(text.get("bip37").render(Map.of("comparison", bip37Comparison(text, summary, bip37))));

        rep.heading("Start height");
        double bits = Math.log(MAINNET_HEIGHT_D) / Math.log(2);
        rep.paragraph(text.get("startHeight")
                .render(Map.of(
                        "height",
                        String.format(Locale.ROOT, "%,d", Bip158Experiment.MAINNET_HEIGHT),
                        "bits",
                        String.format(Locale.ROOT, "%.1f", bits),
                        "roundedBits",
                        String.format(Locale.ROOT, "%.1f", Math.log(MAINNET_HEIGHT_D / 1000) / Math.log(2)))));

        rep.heading("What the design answers");
        rep.bullets(text.get("design").lines(Map.of("quickNote", lab.quick() ? "QUICK mode has few wallets; " : "")));

        Bip158Sensitivity.section(rep, text, sensitivity, summary, shape);
        rep.heading("Limits");
        rep.bullets(text.get("limits")
                .lines(Map.of(
                        "blocks", p.blocks(), "weeks", String.format(Locale.ROOT, "%.1f", p.blocks() / (7 * 144.0)))));
        rep.paragraph(text.get("files").render(Map.of("lastAdversary", Bip158Experiment.ADVERSARIES.size() - 1)));
        rep.write();
    }

    private static final double MAINNET_HEIGHT_D = Bip158Experiment.MAINNET_HEIGHT;

    /** One row per (N, setting) at the given observer, P_h(1) [95% CI] per adversary. */
    static Csv headline(Csv summary, int peers) {
        List<String> header = new ArrayList<>(List.of("N", "decoys", "wallets", "mean_MB"));
        header.addAll(Bip158Experiment.ADVERSARIES);
        Csv t = new Csv(header.toArray(String[]::new));
        List<String> row = null;
        String key = null;
        for (List<String> r : summary.rows()) {
            if (Integer.parseInt(r.get(1)) != peers) {
                continue;
            }
            String k = r.get(0) + "," + r.get(2) + "," + r.get(3);
            if (!k.equals(key)) {
                if (row != null) {
                    t.row(row.toArray());
                }
                key = k;
                row = new ArrayList<>(List.of(
                        r.get(0),
                        Bip158Experiment.SETTINGS
                                .get(Bip158Experiment.settingIndex(r.get(2), Integer.parseInt(r.get(3))))
                                .label(),
                        r.get(5),
                        r.get(9)));
            }
            row.add(r.get(11) + " [" + r.get(12) + ", " + r.get(13) + "]");
        }
        if (row != null) {
            t.row(row.toArray());
        }
        return t;
    }

    private static String reading(Template.Sections text, Csv summary) {
        StringBuilder sb = new StringBuilder(text.get("reading").render()).append(' ');
        for (List<String> r : summary.rows()) {
            if (r.get(1).equals("1") && r.get(2).equals("NONE")) {
                if (r.get(4).equals("uniform") || r.get(4).equals("co-occurrence")) {
                    sb.append(text.get("reading.cell")
                                    .render(Map.of(
                                            "n", r.get(0),
                                            "adversary", r.get(4),
                                            "ph1", r.get(11),
                                            "lo", r.get(12),
                                            "hi", r.get(13),
                                            "phN", r.get(14))))
                            .append(' ');
                }
            }
        }
        sb.append(adversariesReading(text, summary));
        sb.append(resyncAtFourPeers(text, summary));
        return sb.toString();
    }

    /** A one-address wallet is "given away" when the adversary names it with at least this probability. */
    static final double GIVEN_AWAY = 0.5;

    /** The no-decoy P_h(1) of {@code adversary} at N = {@code n} and {@code peers} peers, as printed, or null. */
    private static String ph1Text(Csv summary, String n, String peers, String adversary) {
        for (List<String> r : summary.rows()) {
            if (r.get(0).equals(n)
                    && r.get(1).equals(peers)
                    && r.get(2).equals("NONE")
                    && r.get(4).equals(adversary)) {
                return r.get(11);
            }
        }
        return null;
    }

    /** {@link #ph1Text} as a number, NaN when the cell was not measured (every comparison with it is false). */
    private static double ph1(Csv summary, String n, String peers, String adversary) {
        String v = ph1Text(summary, n, peers, adversary);
        return v == null ? Double.NaN : Double.parseDouble(v);
    }

    /**
     * The adversaries' reading: whether co-occurrence beats the uniform adversary at every N (one observer of every
     * download), and whether 4 peers lower what co-occurrence learns at every N, each chosen from the summary.
     */
    static String adversariesReading(Template.Sections text, Csv summary) {
        String ranking = null;
        String peers = null;
        for (String n : summary.rows().stream().map(r -> r.get(0)).distinct().toList()) {
            String uniform = ph1Text(summary, n, "1", "uniform");
            String cooc = ph1Text(summary, n, "1", "co-occurrence");
            String four = ph1Text(summary, n, "4", "co-occurrence");
            if (ranking == null
                    && uniform != null
                    && cooc != null
                    && Double.parseDouble(cooc) <= Double.parseDouble(uniform)) {
                ranking =
                        text.get("reading.ranking.notBetter").render(Map.of("n", n, "cooc", cooc, "uniform", uniform));
            }
            if (peers == null && four != null && cooc != null && Double.parseDouble(four) >= Double.parseDouble(cooc)) {
                peers = text.get("reading.peers.notLower").render(Map.of("n", n, "four", four, "one", cooc));
            }
        }
        return text.get("reading.adversaries")
                .render(Map.of(
                        "ranking",
                                ranking != null
                                        ? ranking
                                        : text.get("reading.ranking.better").render(),
                        "peers",
                                peers != null
                                        ? peers
                                        : text.get("reading.peers.lower").render()));
    }

    /** Whether BIP 158 under co-occurrence and the smallest BIP 37 filter both give a one-address wallet away. */
    static String bip37Comparison(Template.Sections text, Csv summary, Csv bip37) {
        String bip158 = ph1Text(summary, "1", "1", "co-occurrence");
        if (bip158 == null) {
            throw new IllegalStateException("exp5's summary has no co-occurrence row for N = 1 and one peer");
        }
        double least = bip37.rows().stream()
                .filter(r -> r.get(1).equals("1"))
                .mapToDouble(r -> Double.parseDouble(r.get(8)))
                .min()
                .orElse(Double.NaN);
        return Double.parseDouble(bip158) >= GIVEN_AWAY && least >= GIVEN_AWAY
                ? text.get("bip37.bothGiveAway").render()
                : text.get("bip37.differ").render(Map.of("bip158", bip158, "bip37", Csv.format(least)));
    }

    /** The sentence that says what two syncs give a 1-of-4 observer (intersection vs union), with this run's numbers. */
    static String resyncAtFourPeers(Template.Sections text, Csv summary) {
        StringBuilder sb = new StringBuilder(" ");
        java.util.Map<String, String[]> byN = new java.util.LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            if (!r.get(1).equals("4") || !r.get(2).equals("NONE")) {
                continue;
            }
            int i = switch (r.get(4)) {
                case "co-occurrence" -> 0;
                case "co-occurrence + 2 re-syncs (intersection)" -> 1;
                case "co-occurrence + 2 re-syncs (union)" -> 2;
                default -> -1;
            };
            if (i >= 0) {
                byN.computeIfAbsent(r.get(0), k -> new String[3])[i] =
                        r.get(11) + " [" + r.get(12) + ", " + r.get(13) + "]";
            }
        }
        boolean weaker = true;
        boolean stronger = true;
        boolean below = false;
        boolean above = false;
        for (String n : byN.keySet()) {
            double once = ph1(summary, n, "4", "co-occurrence");
            double inter = ph1(summary, n, "4", "co-occurrence + 2 re-syncs (intersection)");
            double union = ph1(summary, n, "4", "co-occurrence + 2 re-syncs (union)");
            weaker &= inter <= once;
            stronger &= union >= once;
            below |= inter < once;
            above |= union > once;
        }
        sb.append(text.get("resync")
                        .render(Map.of(
                                "intersection",
                                        text.get(weaker && below ? "resync.weaker" : "resync.notWeaker")
                                                .render(),
                                "union",
                                        text.get(stronger && above ? "resync.stronger" : "resync.notStronger")
                                                .render())))
                .append(' ');
        for (java.util.Map.Entry<String, String[]> e : byN.entrySet()) {
            String[] v = e.getValue();
            sb.append(text.get("resync.n")
                            .render(Map.of("n", e.getKey(), "once", v[0], "intersection", v[1], "union", v[2])))
                    .append(' ');
        }
        sb.append(text.get("resync.end").render());
        return sb.toString();
    }
}
