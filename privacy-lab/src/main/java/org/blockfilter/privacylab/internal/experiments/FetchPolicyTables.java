package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * exp8's tables that set two ways side by side: block-by-block syncs beside one range sync, and no-reuse wallets beside
 * reuse wallets, from the summary (and the raw rows' distinct downloads); and the long chain's summary and table.
 * Stateless.
 */
final class FetchPolicyTables {
    private FetchPolicyTables() {}

    /**
     * Over the raw rows' (chain, wallet, model, policy) pairs measured block by block and in one range: how many
     * downloaded the same number of distinct blocks both ways, and how many pairs there are.
     */
    static int[] sameDistinct(Csv raw) {
        Map<String, String> range = new LinkedHashMap<>();
        Map<String, String> byBlock = new LinkedHashMap<>();
        int distinct = FetchPolicyExperiment.MODEL_COLUMN + 1;
        for (List<String> r : raw.rows()) {
            FetchPolicyExperiment.Setting s = new FetchPolicyExperiment.Setting(Integer.parseInt(r.get(4)), r.get(5));
            if (s.longChain()) {
                continue; // another chain: its wallets share indexes with the main chain's, not their syncs
            }
            String key = r.get(1) + "|" + r.get(0) + "|" + r.get(FetchPolicyExperiment.MODEL_COLUMN) + "|" + r.get(4)
                    + "|" + s.policySpec();
            (s.incremental() ? byBlock : range).put(key, r.get(distinct));
        }
        int same = 0;
        int pairs = 0;
        for (Map.Entry<String, String> e : byBlock.entrySet()) {
            String other = range.get(e.getKey());
            if (other != null) {
                pairs++;
                if (other.equals(e.getValue())) {
                    same++;
                }
            }
        }
        return new int[] {same, pairs};
    }

    /** The raw rows of the long chain's settings ({@code longChain}) or of every other setting. */
    static Csv ofLongChain(Csv raw, boolean longChain) {
        Csv out = new Csv(raw.header().toArray(String[]::new));
        for (List<String> r : raw.rows()) {
            if (new FetchPolicyExperiment.Setting(Integer.parseInt(r.get(4)), r.get(5)).longChain() == longChain) {
                out.row(r.toArray());
            }
        }
        return out;
    }

    /** The long chain's summary file. */
    static final String LONG_SUMMARY = "exp8_summary_long.csv";

    /**
     * The long chain's summary ({@link #LONG_SUMMARY}): a wallet model column, then {@link FetchPolicySummary#COLUMNS},
     * per model (reuse first) as {@link FetchPolicySummary#summarise} writes them.
     */
    static Csv longSummary(Lab lab, Csv raw) {
        List<String> header = new ArrayList<>(List.of("model"));
        header.addAll(List.of(FetchPolicySummary.COLUMNS));
        Csv out = new Csv(header.toArray(String[]::new));
        Csv longRaw = ofLongChain(raw, true);
        for (ProfileShapedChain.WalletModel m : ProfileShapedChain.WalletModel.values()) {
            for (List<String> r : FetchPolicySummary.summarise(lab, FetchPolicyExperiment.ofModel(longRaw, m))
                    .rows()) {
                List<Object> row = new ArrayList<>(List.of(FetchPolicyExperiment.modelName(m)));
                row.addAll(r);
                out.row(row.toArray());
            }
        }
        return out;
    }

    /**
     * Per (N, wallet model, policy) of the long chain's summary: wallets, blocks per matched block, distinct blocks per
     * matched block and each of {@link #BY_BLOCK_ADVERSARIES}' cells.
     */
    static Csv longTable(Csv longSummary) {
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        for (List<String> r : longSummary.rows()) {
            byKey.put(r.get(1) + "|" + r.get(0) + "|" + r.get(3) + "|" + r.get(5), r.subList(1, r.size()));
        }
        List<String> header = new ArrayList<>(
                List.of("N", "wallet model", "policy", "wallets", "blocks/match", "distinct blocks/match"));
        header.addAll(BY_BLOCK_ADVERSARIES);
        Csv out = new Csv(header.toArray(String[]::new));
        for (List<String> whole : longSummary.rows()) {
            List<String> r = whole.subList(1, whole.size());
            if (!r.get(4).equals(FetchPolicyAdversaries.NAMES.get(0))) {
                continue;
            }
            String model = whole.get(0).replace('-', ' ');
            List<Object> row = new ArrayList<>(List.of(
                    r.get(0),
                    model,
                    new FetchPolicyExperiment.Setting(1, r.get(2)).policySpec(),
                    r.get(5),
                    perMatch(r),
                    r.get(21)));
            addCells(row, byKey, r.get(0) + "|" + whole.get(0) + "|" + r.get(2) + "|", BY_BLOCK_ADVERSARIES);
            out.row(row.toArray());
        }
        return out;
    }

    /** A summary row's blocks per matched block with its interval. */
    static String perMatch(List<String> r) {
        return r.get(8) + " [" + r.get(9) + ", " + r.get(10) + "]";
    }

    /** The summary's rows by "N|sources|policy|adversary". */
    static Map<String, List<String>> byCell(Csv summary) {
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            byKey.put(r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(4), r);
        }
        return byKey;
    }

    /** Appends to {@code row} the cell of each of {@code adversaries} for the key prefix {@code k} (empty if absent). */
    static void addCells(List<Object> row, Map<String, List<String>> byKey, String k, List<String> adversaries) {
        for (String a : adversaries) {
            List<String> c = byKey.get(k + a);
            row.add(c == null ? "" : FetchPolicySummary.cell(c));
        }
    }

    /** The adversaries the no-reuse table shows (the full no-reuse summary has them all). */
    static final List<String> BESIDE_ADVERSARIES = List.of(
            "co-occurrence + 2 sessions",
            "policy-aware tx graph + 2 sessions",
            "network observer (v1): tx graph",
            "policy-aware change linking + 2 sessions",
            "network observer (v1): change linking",
            FetchPolicyAdversaries.NAMES.get(FetchPolicyAdversaries.MAX));

    /**
     * Per (N, sources, policy) of the no-reuse summary: a row for the reuse wallets and one for the no-reuse wallets,
     * wallets, blocks per matched block and each shown adversary's cell.
     */
    static Csv beside(Csv reuse, Csv noReuse) {
        List<String> header =
                new ArrayList<>(List.of("N", "sources", "policy", "wallet model", "wallets", "blocks/match"));
        header.addAll(BESIDE_ADVERSARIES);
        Csv out = new Csv(header.toArray(String[]::new));
        Map<String, List<String>> reuseByKey = byCell(reuse);
        Map<String, List<String>> noReuseByKey = byCell(noReuse);
        for (List<String> r : noReuse.rows()) {
            if (!r.get(4).equals(FetchPolicyAdversaries.NAMES.get(0))) {
                continue;
            }
            String k = r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|";
            for (String model : List.of("reuse", "no reuse")) {
                Map<String, List<String>> byKey = model.equals("reuse") ? reuseByKey : noReuseByKey;
                List<String> first = byKey.get(k + FetchPolicyAdversaries.NAMES.get(0));
                if (first == null) {
                    continue;
                }
                List<Object> row = new ArrayList<>(List.of(
                        r.get(0),
                        r.get(1),
                        r.get(2) + (r.get(3).equals("yes") ? " (default)" : ""),
                        model,
                        first.get(5),
                        perMatch(first)));
                addCells(row, byKey, k, BESIDE_ADVERSARIES);
                out.row(row.toArray());
            }
        }
        return out;
    }

    /** The adversaries the block-by-block table shows (the full table has them all). */
    static final List<String> BY_BLOCK_ADVERSARIES = List.of(
            "co-occurrence",
            "co-occurrence + timing",
            "co-occurrence + 2 sessions",
            "policy-aware tx graph + 2 sessions",
            "network observer (v1): tx graph",
            FetchPolicyAdversaries.NAMES.get(FetchPolicyAdversaries.MAX));

    /** Per (N, sources, policy) measured block by block: each shown adversary's cell for one range and block by block. */
    /**
     * The paragraph on blocks requested again, from the by-block table {@code byBlock} and {@code same} (distinct
     * counts equal to the range sync's, pairs measured both ways): whether every policy with decoys requests more
     * blocks per matched block block by block than in one range, and whether every distinct count is the range's.
     */
    static String repeats(Template.Sections text, Csv byBlock, int[] same, int step) {
        Map<String, Double> range = new HashMap<>();
        boolean more = true;
        for (List<String> r : byBlock.rows()) {
            String key = r.get(0) + "|" + r.get(1) + "|" + r.get(2);
            double perMatch = Double.parseDouble(r.get(4).split(" ")[0]);
            if (r.get(3).equals("one range")) {
                range.put(key, perMatch);
            } else if ((r.get(2).contains("decoys=") || r.get(2).contains("clusters=")) && range.containsKey(key)) {
                more &= perMatch > range.get(key);
            }
        }
        return text.get("byBlock.repeats")
                .render(Map.of(
                        "step",
                        step,
                        "more",
                        text.get(more ? "byBlock.more" : "byBlock.notMore").render(),
                        "same",
                        same[0],
                        "pairs",
                        same[1],
                        "maxCfilters",
                        Lab.count(org.blockfilter.filters.Bip157.MAX_CFILTERS),
                        "distinct",
                        same[0] == same[1]
                                ? text.get("byBlock.distinctSame").render()
                                : text.get("byBlock.distinctDiffer")
                                        .render(Map.of("same", same[0], "pairs", same[1]))));
    }

    static Csv byBlock(Csv summary) {
        Map<String, List<String>> byKey = byCell(summary);
        List<String> header =
                new ArrayList<>(List.of("N", "sources", "policy", "sync", "blocks/match", "distinct blocks/match"));
        header.addAll(BY_BLOCK_ADVERSARIES);
        Csv out = new Csv(header.toArray(String[]::new));
        for (List<String> r : summary.rows()) {
            FetchPolicyExperiment.Setting s = new FetchPolicyExperiment.Setting(Integer.parseInt(r.get(1)), r.get(2));
            if (!s.incremental() || !r.get(4).equals(FetchPolicyAdversaries.NAMES.get(0))) {
                continue;
            }
            for (String spec : List.of(s.policySpec(), s.spec())) {
                String k = r.get(0) + "|" + r.get(1) + "|" + spec + "|";
                List<String> first = byKey.get(k + FetchPolicyAdversaries.NAMES.get(0));
                if (first == null) {
                    continue;
                }
                List<Object> row = new ArrayList<>(List.of(
                        r.get(0),
                        r.get(1),
                        s.policySpec(),
                        spec.equals(s.spec()) ? "block by block" : "one range",
                        perMatch(first),
                        first.get(21)));
                addCells(row, byKey, k, BY_BLOCK_ADVERSARIES);
                out.row(row.toArray());
            }
        }
        return out;
    }
}
