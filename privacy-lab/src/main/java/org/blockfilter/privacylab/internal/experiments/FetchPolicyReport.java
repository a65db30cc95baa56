package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.wallet.sync.FetchPolicy;

/** The report of experiment 8 (Markdown + HTML), written from its tables. Stateless. */
final class FetchPolicyReport {
    private FetchPolicyReport() {}

    /** Experiment 8's report template, loaded once for every section that renders from it. */
    static final Template.Sections TEXT = Template.load("exp8.txt");

    /** The rule's bound: the maximum over adversaries must have its upper 95% bound below this in every case. */
    static final double RULE_BOUND = 0.5;

    static void write(
            Lab lab,
            Path dir,
            ProfileShapedChain.Shape shape,
            FetchPolicySummary.Setup setup,
            List<FetchPolicyExperiment.Setting> settings,
            Csv summary,
            Csv noReuse,
            Csv longSummary,
            Csv raw,
            Csv bip37,
            Csv change,
            List<String> plots) {
        Template.Sections text = TEXT;
        Report rep = new Report(dir, text.get("title").render());
        rep.paragraph(lab.regenerate("exp8"));
        List<String> wallets = new ArrayList<>();
        for (int i = 0; i < shape.walletSizes().length; i++) {
            wallets.add(text.get("setup.walletsOfSize")
                    .render(Map.of("wallets", shape.walletsPerSize()[i], "n", shape.walletSizes()[i])));
        }
        int noReuseSettings = FetchPolicyExperiment.noReuseSettings().size();
        int longSettings = FetchPolicyLongChain.settings().size();
        int syncs = (setup.wallets() * settings.size()
                        + setup.noReuseWallets() * noReuseSettings
                        + setup.longWallets() * longSettings)
                * 2;
        int mainnetTxPerBlock = org.blockfilter.regtest.mainnet.MainnetProfile.MAINNET.txPerBlock();
        boolean smallBlocks = shape.txPerBlock() < mainnetTxPerBlock;
        int step = FetchPolicyExperiment.INCREMENTAL_STEP;
        String steps = step == 1
                ? text.get("step.one").render()
                : text.get("step.many").render(Map.of("step", step));
        int rangeFrom = setup.blocks() - setup.blocks() / 2;
        Map<String, Object> values = new HashMap<>();
        values.put("txPerBlock", Lab.count(shape.txPerBlock()));
        values.put("reuseShare", shape.reuseShare());
        values.put("changeToSelfShare", shape.changeToSelfShare());
        values.put("priorOutputs", Lab.count(shape.priorOutputs()));
        values.put("blocks", setup.blocks());
        values.put("seeds", setup.seeds());
        values.put("elementsPerBlock", Lab.count(Math.round(setup.elementsPerBlock())));
        values.put(
                "blockSize",
                smallBlocks
                        ? text.get("setup.smallBlocks").render(Map.of("ratio", mainnetTxPerBlock / shape.txPerBlock()))
                        : text.get("setup.mainnetBlocks").render());
        values.put("walletsPerSize", String.join(", ", wallets));
        values.put("wallets", setup.wallets());
        values.put("noReuseWallets", setup.noReuseWallets());
        values.put("noReuseSettings", noReuseSettings);
        values.put("rawBlockBytes", Lab.count(Math.round(setup.rawBlockBytes())));
        values.put("bytesPerElement", setup.bytesPerElement());
        values.put("incremental", FetchPolicyExperiment.INCREMENTAL);
        values.put(
                "every",
                step == 1
                        ? steps
                        : steps + " " + text.get("step.hours").render(Map.of("hours", Stats.sig(step / 6.0, 2))));
        values.put("rangeFromCount", Lab.count(rangeFrom));
        values.put("blocksCount", Lab.count(setup.blocks()));
        values.put("rangeFromDays", Stats.sig(rangeFrom / 144.0, 2));
        values.put("blocksDays", Stats.sig(setup.blocks() / 144.0, 2));
        boolean longChain = setup.longBlocks() > 0;
        Map<String, Object> longValues = new HashMap<>();
        longValues.put("longBlocks", Lab.count(setup.longBlocks()));
        longValues.put("longDays", Stats.sig(setup.longBlocks() / 144.0, 2));
        longValues.put("longWallets", setup.longWallets());
        longValues.put("long", FetchPolicyExperiment.INCREMENTAL + "long,");
        longValues.put("longSettings", longSettings);
        values.put(
                "longChain",
                longChain
                        ? text.get("setup.long").render(longValues)
                        : text.get("setup.noLong").render());
        values.put("longWallets", setup.longWallets());
        values.put("longSettings", longSettings);
        values.put("torCellPayload", FetchPolicyAdversaries.TOR_CELL_PAYLOAD);
        values.put("decoyMaxBlocks", FetchPolicy.DECOY_MAX_BLOCKS);
        values.put("clusterMaxBlocks", FetchPolicy.CLUSTER_MAX_BLOCKS);
        values.put("syncs", Lab.count(syncs));
        values.put("settings", settings.size());
        values.put("syncSeconds", Math.round(setup.syncSeconds()));
        values.put("buildSeconds", Math.round(setup.buildSeconds()));
        values.put("threads", setup.threads());
        values.put("wallSeconds", Math.round(setup.wallSeconds()));
        values.put(
                "wallHow",
                setup.processes() == 1
                        ? text.get("cost.oneProcess").render()
                        : text.get("cost.parallel").render(Map.of("processes", setup.processes())));
        values.put("processors", setup.processors());
        values.put("load", setup.loadAverage() < 0 ? "not known" : Stats.sig(setup.loadAverage(), 3));
        rep.heading("Setup (every assumption)");
        rep.bullets(text.get("setup").lines(values));

        rep.heading("Results: P_h(1) by adversary, and the bandwidth each policy costs");
        rep.paragraph(text.get("results.source0").render());
        rep.table(pivot(summary, 0, 8));
        rep.paragraph(text.get("results.stronger").render());
        rep.table(pivot(summary, 8, FetchPolicyAdversaries.NAMES.size()));
        rep.paragraph(sizes(summary));
        rep.paragraph(ChangeLinkingCheck.text(change));
        rep.paragraph(findings(summary));
        for (String f : plots) {
            rep.image(f, f);
        }
        rep.heading("Block by block against one range sync");
        rep.paragraph(
                text.get("byBlock").render(Map.of("every", steps, "incremental", FetchPolicyExperiment.INCREMENTAL)));
        rep.table(FetchPolicyTables.byBlock(summary));
        int[] same = FetchPolicyTables.sameDistinct(raw);
        rep.paragraph(FetchPolicyTables.repeats(text, FetchPolicyTables.byBlock(summary), same, step));
        if (longChain) {
            rep.heading("Block by block on the long chain");
            Map<String, Object> v = new HashMap<>(longValues);
            v.put("every", steps);
            rep.paragraph(text.get("byBlock.long").render(v));
            rep.table(FetchPolicyTables.longTable(longSummary));
        }
        rep.heading("No-reuse wallets beside the reuse wallets");
        rep.paragraph(text.get("noReuse").render());
        rep.table(FetchPolicyTables.beside(summary, noReuse));
        rep.heading("Cluster decoys alone at N = 10");
        rep.paragraph(clustersAlone(summary));
        rep.heading("The default");
        rep.paragraph(rule(summary).text());
        rep.heading("What the default leaks, per adversary");
        rep.paragraph(text.get("defaultLeaks").render(Map.of("spec", FetchPolicy.DEFAULT_SPEC)));
        rep.table(defaultLeaks(summary));
        rep.heading("Other light-client designs on the same axes");
        rep.paragraph(text.get("designs").render());
        rep.table(designs(summary, bip37));
        rep.heading("Limits");
        rep.bullets(text.get("limits")
                .lines(Map.of(
                        "blockSize",
                        smallBlocks
                                ? text.get("limits.smallBlocks")
                                        .render(Map.of(
                                                "txPerBlock",
                                                shape.txPerBlock(),
                                                "mainnetTxPerBlock",
                                                mainnetTxPerBlock))
                                : text.get("limits.mainnetBlocks")
                                        .render(Map.of("txPerBlock", Lab.count(shape.txPerBlock()))),
                        "blocks",
                        setup.blocks(),
                        "blocksDays",
                        Stats.sig(setup.blocks() / 144.0, 2),
                        "seeds",
                        setup.seeds(),
                        "wallets",
                        setup.wallets(),
                        "rangeFrom",
                        rangeFrom,
                        "longChain",
                        longChain
                                ? text.get("limits.long").render(longValues)
                                : text.get("limits.noLong").render(),
                        "noReuseSettings",
                        noReuseSettings,
                        "settings",
                        settings.size())));
        rep.heading("All cells");
        rep.table(summary);
        rep.write();
    }

    /** The rule's outcome: the pick (null when none qualifies) and the text for the report. */
    record Decision(String pick, String text) {}

    /**
     * The rule for the wallet's default, written here before the run that measures it: among the measured non-Tor
     * policies, those whose maximum-over-adversaries P_h(1) has an upper 95% bound below {@link #RULE_BOUND} for every
     * measured wallet size and number of sources; of those the cheapest (fewest blocks per matched block at the
     * largest N with one source). It becomes the default. If none qualifies the default stays as it is, and the report
     * and the wallet's documentation say per adversary what it does and does not protect against.
     */
    static Decision rule(Csv summary) {
        String max = FetchPolicyAdversaries.NAMES.get(FetchPolicyAdversaries.MAX);
        int maxN = 0;
        for (List<String> r : summary.rows()) {
            maxN = Math.max(maxN, Integer.parseInt(r.get(0)));
        }
        Map<String, Boolean> ok = new LinkedHashMap<>();
        Map<String, Double> cost = new LinkedHashMap<>();
        Map<String, Double> worst = new LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            String spec = r.get(2);
            FetchPolicyExperiment.Setting setting = new FetchPolicyExperiment.Setting(1, spec);
            if (!r.get(4).equals(max) || setting.tor() || setting.incremental()) {
                continue;
            }
            double hi = Double.parseDouble(r.get(14));
            ok.merge(spec, hi < RULE_BOUND, Boolean::logicalAnd);
            worst.merge(spec, hi, Math::max);
            if (Integer.parseInt(r.get(0)) == maxN && r.get(1).equals("1")) {
                cost.put(spec, Double.parseDouble(r.get(8)));
            }
        }
        String pick = null;
        for (Map.Entry<String, Boolean> e : ok.entrySet()) {
            if (e.getValue()
                    && cost.containsKey(e.getKey())
                    && (pick == null || cost.get(e.getKey()) < cost.get(pick))) {
                pick = e.getKey();
            }
        }
        Template.Sections text = TEXT;
        String head = text.get("rule")
                        .render(Map.of("bound", RULE_BOUND, "maxN", maxN, "defaultSpec", FetchPolicy.DEFAULT_SPEC))
                + " ";
        String best = null;
        for (Map.Entry<String, Double> e : worst.entrySet()) {
            if (best == null || e.getValue() < worst.get(best)) {
                best = e.getKey();
            }
        }
        if (pick == null) {
            return new Decision(
                    null,
                    head
                            + (best == null
                                    ? text.get("rule.noneMeasured").render()
                                    : text.get("rule.noneQualifies")
                                            .render(Map.of(
                                                    "best",
                                                    best,
                                                    "worst",
                                                    Stats.sig(worst.get(best), 3),
                                                    "defaultSpec",
                                                    FetchPolicy.DEFAULT_SPEC))));
        }
        boolean agrees = FetchPolicy.parse(pick).equals(FetchPolicy.DEFAULT);
        return new Decision(
                pick,
                head
                        + text.get("rule.pick")
                                .render(Map.of(
                                        "pick",
                                        pick,
                                        "worst",
                                        Stats.sig(worst.get(pick), 3),
                                        "cost",
                                        Stats.sig(cost.get(pick), 3),
                                        "agreement",
                                        agrees
                                                ? text.get("rule.agrees").render()
                                                : text.get("rule.differs")
                                                        .render(Map.of("defaultSpec", FetchPolicy.DEFAULT_SPEC)))));
    }

    /** One row per (N, sources, policy): bandwidth and P_h(1) [95% CI] of adversaries {@code from..to-1}. */
    static Csv pivot(Csv summary, int from, int to) {
        List<String> header = new ArrayList<>(List.of("N", "sources", "policy", "wallets", "blocks/match", "MB/day"));
        header.addAll(FetchPolicyAdversaries.NAMES.subList(from, to));
        boolean withMax = to == FetchPolicyAdversaries.NAMES.size();
        if (withMax) {
            header.add("max: bits");
        }
        Csv out = new Csv(header.toArray(String[]::new));
        Map<String, List<Object>> rows = new LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            int a = FetchPolicyAdversaries.NAMES.indexOf(r.get(4));
            if (a < from || a >= to) {
                continue;
            }
            String key = r.get(0) + "|" + r.get(1) + "|" + r.get(2);
            List<Object> row = rows.computeIfAbsent(
                    key,
                    k -> new ArrayList<>(List.of(
                            r.get(0),
                            r.get(1),
                            r.get(2) + (r.get(3).equals("yes") ? " (default)" : ""),
                            r.get(5),
                            FetchPolicyTables.perMatch(r),
                            r.get(18))));
            row.add(FetchPolicySummary.cell(r));
            if (withMax && a == FetchPolicyAdversaries.MAX) {
                row.add(r.get(17));
            }
        }
        rows.values().forEach(r -> out.row(r.toArray()));
        return out;
    }

    /** The share of downloads a size observer knows, from the summary (exact sizes; Tor cells). */
    static String sizes(Csv summary) {
        List<Double> exact = new ArrayList<>();
        List<Double> cells = new ArrayList<>();
        for (List<String> r : summary.rows()) {
            if (r.get(4).equals(FetchPolicyAdversaries.NAMES.get(0))) {
                (new FetchPolicyExperiment.Setting(1, r.get(2)).tor() ? cells : exact)
                        .add(Double.parseDouble(r.get(19)));
            }
        }
        Template.Sections text = TEXT;
        String none = text.get("sizes.none").render();
        return text.get("sizes")
                .render(Map.of(
                        "exact", exact.isEmpty() ? none : Stats.sig(Stats.mean(exact), 3),
                        "cells", cells.isEmpty() ? none : Stats.sig(Stats.mean(cells), 3)));
    }

    /** Sentences comparing no policy with the default, per N and sources, for source 0 and the maximum. */
    static String findings(Csv summary) {
        Template.Sections text = TEXT;
        StringBuilder sb = new StringBuilder();
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            byKey.put(r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(4), r);
        }
        String cooc = "co-occurrence + 2 sessions";
        String max = FetchPolicyAdversaries.NAMES.get(FetchPolicyAdversaries.MAX);
        for (List<String> r : summary.rows()) {
            if (!r.get(3).equals("yes") || !r.get(4).equals(cooc)) {
                continue;
            }
            String k = r.get(0) + "|" + r.get(1) + "|";
            List<String> none = byKey.get(k + "none|" + cooc);
            List<String> noneMax = byKey.get(k + "none|" + max);
            List<String> defMax = byKey.get(k + r.get(2) + "|" + max);
            if (none == null || noneMax == null || defMax == null) {
                continue;
            }
            Map<String, Object> v = new HashMap<>();
            v.put("n", r.get(0));
            v.put("sources", r.get(1));
            v.put("none", FetchPolicySummary.cell(none));
            v.put("dflt", FetchPolicySummary.cell(r));
            v.put("noneMax", FetchPolicySummary.cell(noneMax));
            v.put("dfltMax", FetchPolicySummary.cell(defMax));
            v.put("perMatch", r.get(8));
            v.put("nonePerMatch", none.get(8));
            v.put("mbPerDay", r.get(18));
            sb.append(text.get("findings").render(v)).append(' ');
        }
        return sb.toString().trim();
    }

    /**
     * Why lone decoys hide an N = 10 wallet from the source and cluster decoys alone do not, from the summary's
     * one-source rows (empty when the grid lacks either).
     */
    static String clustersAlone(Csv summary) {
        Map<String, List<String>> byKey = FetchPolicyTables.byCell(summary);
        String clusters = FetchPolicyExperiment.SPECS_ONE.stream()
                .filter(x -> FetchPolicy.parse(x).clusters() > 0
                        && FetchPolicy.parse(x).decoys() == 0)
                .findFirst()
                .orElse(null);
        String decoys = FetchPolicyExperiment.SPECS_ONE.stream()
                .filter(x -> FetchPolicy.parse(x).decoys() > 0
                        && FetchPolicy.parse(x).clusters() == 0)
                .findFirst()
                .orElse(null);
        int n = summary.rows().stream()
                .mapToInt(r -> Integer.parseInt(r.get(0)))
                .max()
                .orElse(0);
        if (clusters == null || decoys == null) {
            return "";
        }
        List<String> c0 = byKey.get(n + "|1|" + clusters + "|co-occurrence");
        List<String> g0 = byKey.get(n + "|1|" + clusters + "|tx graph");
        List<String> d0 = byKey.get(n + "|1|" + decoys + "|co-occurrence");
        List<String> dg = byKey.get(n + "|1|" + decoys + "|tx graph");
        if (c0 == null || g0 == null || d0 == null || dg == null) {
            return "";
        }
        Template.Sections text = TEXT;
        Map<String, Object> v = new HashMap<>();
        v.put("n", n);
        v.put("clusters", clusters);
        v.put("clustersCooc", FetchPolicySummary.cell(c0));
        v.put("clustersGraph", FetchPolicySummary.cell(g0));
        v.put("decoys", decoys);
        v.put("decoysCooc", FetchPolicySummary.cell(d0));
        v.put("decoysGraph", FetchPolicySummary.cell(dg));
        v.put("clustersPerMatch", c0.get(8));
        v.put("decoysPerMatch", d0.get(8));
        String figures = text.get("clustersAlone").render(v);
        if (Double.parseDouble(g0.get(12)) <= Double.parseDouble(dg.get(12))) {
            return figures;
        }
        return figures + " "
                + text.get("clustersAlone.why")
                        .render(Map.of(
                                "decoyMaxBlocks", FetchPolicy.DECOY_MAX_BLOCKS,
                                "matchedBlocks", c0.get(6),
                                "clusterMaxBlocks", FetchPolicy.CLUSTER_MAX_BLOCKS));
    }

    /** Adversary by (N, sources) for the default policy: P_h(1) [interval], bits. */
    static Csv defaultLeaks(Csv summary) {
        List<String> keys = new ArrayList<>();
        Map<String, Map<String, String>> byAdversary = new LinkedHashMap<>();
        for (String a : FetchPolicyAdversaries.NAMES) {
            byAdversary.put(a, new LinkedHashMap<>());
        }
        for (List<String> r : summary.rows()) {
            if (!r.get(3).equals("yes")) {
                continue;
            }
            String key = "N = " + r.get(0) + ", k = " + r.get(1);
            if (!keys.contains(key)) {
                keys.add(key);
            }
            byAdversary.get(r.get(4)).put(key, FetchPolicySummary.cell(r) + "; " + r.get(17) + " bits");
        }
        List<String> header = new ArrayList<>(List.of("adversary"));
        header.addAll(keys);
        Csv out = new Csv(header.toArray(String[]::new));
        for (Map.Entry<String, Map<String, String>> e : byAdversary.entrySet()) {
            List<Object> row = new ArrayList<>(List.of(e.getKey()));
            for (String k : keys) {
                row.add(e.getValue().getOrDefault(k, ""));
            }
            out.row(row.toArray());
        }
        return out;
    }

    /** The comparison with other designs: one row per (design, N). */
    static Csv designs(Csv summary, Csv bip37) {
        Csv out = new Csv("design", "N", "adversary", "P_h(1)", "posterior entropy (bits)", "anonymity set (2^bits)");
        List<Integer> ns = new ArrayList<>();
        for (List<String> r : bip37.rows()) {
            int n = Integer.parseInt(r.get(0));
            if (!ns.contains(n)) {
                ns.add(n);
            }
        }
        for (int n : ns) {
            out.row("Electrum protocol, one server", n, "the server", "1 (by protocol)", 0.0, 1.0);
            out.row(
                    "Electrum protocol, m servers (scripts split)",
                    n,
                    "each server, for the scripts sent to it",
                    "1 (by protocol)",
                    0.0,
                    1.0);
            out.row(
                    "Electrum protocol over Tor",
                    n,
                    "the server (Tor hides the address, not one connection's scripts)",
                    "1 (by protocol)",
                    0.0,
                    1.0);
            for (List<String> r : bip37.rows()) {
                if (Integer.parseInt(r.get(0)) == n) {
                    double bits = Double.parseDouble(r.get(3));
                    out.row(
                            "BIP 37, today's HD wallet (bitcoinj 0.17, rate 1e-5, persistent tweak)",
                            n,
                            "the peer holding the filter",
                            r.get(2) + " (" + r.get(1) + " wallets)",
                            Stats.sig(bits, 3),
                            Stats.sig(Math.pow(2, bits), 3));
                }
            }
            for (String spec : List.of("none", FetchPolicy.DEFAULT_SPEC)) {
                for (String adversary : List.of(
                        "co-occurrence + 2 sessions",
                        "tx graph",
                        FetchPolicyAdversaries.NAMES.get(FetchPolicyAdversaries.MAX))) {
                    for (List<String> r : summary.rows()) {
                        if (Integer.parseInt(r.get(0)) == n
                                && r.get(1).equals("1")
                                && r.get(2).equals(spec)
                                && r.get(4).equals(adversary)) {
                            double bits = Double.parseDouble(r.get(17));
                            out.row(
                                    "BIP 158, " + (spec.equals("none") ? "no policy" : "the default `" + spec + "`"),
                                    n,
                                    adversary + " (one source)",
                                    FetchPolicySummary.cell(r),
                                    Stats.sig(bits, 3),
                                    Stats.sig(Math.pow(2, bits), 3));
                        }
                    }
                }
            }
        }
        return out;
    }
}
