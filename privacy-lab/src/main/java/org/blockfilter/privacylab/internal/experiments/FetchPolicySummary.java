package org.blockfilter.privacylab.internal.experiments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;

/**
 * Experiment 8's summary: per (N, sources, policy, adversary) the mean P_h(1) over every wallet of every chain seed,
 * its 95% interval, the per-seed means, the posterior entropy and the bandwidth. Stateless.
 *
 * <p>The interval: P_h(1) of one wallet is the probability that the adversary's top guess is the wallet's, so the
 * pooled mean p over n wallets is the success rate of n guesses; a wallet's P_h(1) in [0, 1] has variance at most
 * p(1 - p), so the Wilson score interval for p with n trials covers the within-chain spread (it does not collapse
 * at 0 or 1: 24 of 24 gives [0.862, 1]). Wallets of one chain share it, so the interval uses the effective sample
 * size n / deff, with deff = max(1, v / (p(1 - p) / n)) and v = sum_j (m_j - p)^2 / (c (c - 1)) the variance of
 * the mean estimated from the c chain seeds' means m_j (Kish's design effect for cluster samples): chain-to-chain
 * variance widens the interval.
 */
final class FetchPolicySummary {
    private FetchPolicySummary() {}

    /**
     * What a run cost and the chain's sizes, for the report; written beside the raw rows so a rerender has them. Build
     * and sync seconds are summed over the chain seeds; wall seconds are one process's builds and syncs, and for seeds
     * run as parallel processes and merged, the longest process's. {@code longBlocks} and {@code longWallets}: the long
     * chain's length and its wallets over every seed (0 in a file written before the long chain).
     */
    record Setup(
            int blocks,
            int seeds,
            int wallets,
            int noReuseWallets,
            int longBlocks,
            int longWallets,
            double elementsPerBlock,
            double rawBlockBytes,
            int bytesPerElement,
            double buildSeconds,
            double syncSeconds,
            double wallSeconds,
            int threads,
            int processes,
            int processors,
            double loadAverage) {
        /**
         * Rounds the sizes as {@link #write} does, so that a report rendered from this setup and one rendered again from
         * the file it writes ({@link FetchPolicyOutputs#rerender}) print the same figures.
         */
        Setup {
            elementsPerBlock = Stats.sig(elementsPerBlock, 5);
            rawBlockBytes = Stats.sig(rawBlockBytes, 5);
        }

        /** The machine's 1-minute load average now (the OS's figure; -1 where it has none), for a run's setup. */
        static double loadNow() {
            return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage();
        }

        void write(Path file) {
            Csv c = new Csv("key", "value");
            c.row("blocks", blocks);
            c.row("seeds", seeds);
            c.row("wallets", wallets);
            c.row("no_reuse_wallets", noReuseWallets);
            c.row("long_blocks", longBlocks);
            c.row("long_wallets", longWallets);
            c.row("elements_per_block", Stats.sig(elementsPerBlock, 5));
            c.row("raw_block_bytes", Stats.sig(rawBlockBytes, 5));
            c.row("bytes_per_element", bytesPerElement);
            c.row("build_seconds", Math.round(buildSeconds));
            c.row("sync_seconds", Math.round(syncSeconds));
            c.row("wall_seconds", Math.round(wallSeconds));
            c.row("threads", threads);
            c.row("processes", processes);
            c.row("processors", processors);
            c.row("load_average_at_start", Stats.sig(loadAverage, 3));
            c.write(file);
        }

        static Setup read(Path file) {
            Map<String, String> m = new TreeMap<>();
            for (List<String> r : FetchPolicySummary.read(file).rows()) {
                m.put(r.get(0), r.get(1));
            }
            return new Setup(
                    Integer.parseInt(m.get("blocks")),
                    Integer.parseInt(m.get("seeds")),
                    Integer.parseInt(m.get("wallets")),
                    Integer.parseInt(m.get("no_reuse_wallets")),
                    Integer.parseInt(m.getOrDefault("long_blocks", "0")),
                    Integer.parseInt(m.getOrDefault("long_wallets", "0")),
                    Double.parseDouble(m.get("elements_per_block")),
                    Double.parseDouble(m.get("raw_block_bytes")),
                    Integer.parseInt(m.get("bytes_per_element")),
                    Double.parseDouble(m.get("build_seconds")),
                    Double.parseDouble(m.get("sync_seconds")),
                    // One process's wall time is its builds and syncs (a part written before this key had only those).
                    m.containsKey("wall_seconds")
                            ? Double.parseDouble(m.get("wall_seconds"))
                            : Double.parseDouble(m.get("build_seconds")) + Double.parseDouble(m.get("sync_seconds")),
                    Integer.parseInt(m.get("threads")),
                    Integer.parseInt(m.get("processes")),
                    Integer.parseInt(m.get("processors")),
                    Double.parseDouble(m.get("load_average_at_start")));
        }
    }

    /** The columns of exp8_summary.csv. */
    static final String[] COLUMNS = {
        "N",
        "sources",
        "policy",
        "default",
        "adversary",
        "wallets",
        "mean_matched_blocks",
        "mean_downloads",
        "blocks_per_match",
        "blocks_per_match_lo",
        "blocks_per_match_hi",
        "mean_block_MB",
        "ph1",
        "ph1_lo",
        "ph1_hi",
        "ph1_per_seed",
        "design_effect",
        "entropy_bits",
        "MB_per_day",
        "size_identified",
        "seeds",
        "distinct_per_match"
    };

    /** Summary rows by (N, sources, policy) then adversary, from the raw rows. */
    static Csv summarise(Lab lab, Csv raw) {
        Map<String, List<List<String>>> groups =
                FetchPolicyExperiment.group(raw, r -> r.get(2) + "|" + r.get(4) + "|" + r.get(5));
        List<Map.Entry<String, List<List<String>>>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(Comparator.comparing((Map.Entry<String, List<List<String>>> e) ->
                        Integer.parseInt(e.getKey().split("\\|")[0]))
                .thenComparing(e -> Integer.parseInt(e.getKey().split("\\|")[1]))
                .thenComparing(e -> FetchPolicyExperiment.specOrder(e.getKey().split("\\|")[2])));
        Csv s = new Csv(COLUMNS);
        int adversaries = FetchPolicyAdversaries.NAMES.size();
        for (Map.Entry<String, List<List<String>>> e : sorted) {
            List<List<String>> rs = e.getValue();
            String[] key = e.getKey().split("\\|");
            boolean isDefault = new FetchPolicyExperiment.Setting(Integer.parseInt(key[1]), key[2]).isDefault();
            List<Double> perMatch = column(rs, 10);
            List<Double> distinctPerMatch = new ArrayList<>();
            for (List<String> r : rs) {
                distinctPerMatch.add(Double.parseDouble(r.get(FetchPolicyExperiment.MODEL_COLUMN + 1))
                        / Math.max(1, Integer.parseInt(r.get(7))));
            }
            double[] cb = Stats.ci(perMatch, lab.seed("exp8/cib", e.getKey().hashCode()));
            Map<String, List<List<String>>> bySeed = FetchPolicyExperiment.group(csv(rs), r -> r.get(1));
            for (int a = 0; a < adversaries; a++) {
                int col = FetchPolicyExperiment.PH1_COLUMN + a;
                List<Double> ph1 = column(rs, col);
                double p = Stats.mean(ph1);
                List<Double> seedMeans = new ArrayList<>();
                for (List<List<String>> one : bySeed.values()) {
                    seedMeans.add(Stats.mean(column(one, col)));
                }
                double deff = designEffect(p, ph1.size(), seedMeans);
                double[] ci = wilson(p, ph1.size() / deff);
                StringBuilder per = new StringBuilder();
                for (double m : seedMeans) {
                    per.append(per.length() == 0 ? "" : " ").append(Stats.sig(m, 3));
                }
                s.row(
                        Integer.parseInt(key[0]),
                        Integer.parseInt(key[1]),
                        key[2],
                        isDefault ? "yes" : "",
                        FetchPolicyAdversaries.NAMES.get(a),
                        rs.size(),
                        Stats.sig(Stats.mean(column(rs, 7)), 3),
                        Stats.sig(Stats.mean(column(rs, 8)), 3),
                        Stats.sig(Stats.mean(perMatch), 3),
                        Stats.sig(cb[0], 3),
                        Stats.sig(cb[1], 3),
                        Stats.sig(Stats.mean(column(rs, 11)), 3),
                        Stats.sig(p, 3),
                        Stats.sig(ci[0], 3),
                        Stats.sig(ci[1], 3),
                        per.toString(),
                        Stats.sig(deff, 3),
                        Stats.sig(Stats.mean(column(rs, col + adversaries)), 3),
                        Stats.sig(Stats.mean(column(rs, 12)), 3),
                        Stats.sig(Stats.mean(column(rs, 14)), 3),
                        bySeed.size(),
                        Stats.sig(Stats.mean(distinctPerMatch), 3));
            }
        }
        return s;
    }

    /** Kish's design effect of a mean p over n units in clusters with means {@code clusterMeans} (at least 1). */
    static double designEffect(double p, int n, List<Double> clusterMeans) {
        int c = clusterMeans.size();
        if (c < 2 || n == 0) {
            return 1;
        }
        double v = 0;
        for (double m : clusterMeans) {
            v += (m - p) * (m - p);
        }
        v /= (double) c * (c - 1);
        double srs = p * (1 - p) / n;
        if (srs <= 0) {
            return 1;
        }
        return Math.max(1, v / srs);
    }

    /** The Wilson score 95% interval for success rate {@code p} over {@code n} (possibly fractional) trials. */
    static double[] wilson(double p, double n) {
        if (n <= 0) {
            return new double[] {0, 1};
        }
        double z = Stats.Z95;
        double z2 = z * z;
        double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
        double half = z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
        // At p = 0 (1) the bound is exactly 0 (1); the formula leaves a rounding residue there.
        return new double[] {p <= 0 ? 0 : Math.max(0, centre - half), p >= 1 ? 1 : Math.min(1, centre + half)};
    }

    private static Csv csv(List<List<String>> rows) {
        Csv c = new Csv(FetchPolicyExperiment.header().toArray(String[]::new));
        rows.forEach(r -> c.row(r.toArray()));
        return c;
    }

    static List<Double> column(List<List<String>> rows, int i) {
        List<Double> out = new ArrayList<>();
        for (List<String> r : rows) {
            out.add(Double.parseDouble(r.get(i)));
        }
        return out;
    }

    /** A CSV file as {@link Csv} writes it. */
    static Csv read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Csv c = new Csv(split(lines.get(0)).toArray(String[]::new));
        for (String line : lines.subList(1, lines.size())) {
            c.row(split(line).toArray());
        }
        return c;
    }

    /** A CSV line as {@link Csv} writes it (cells with commas in double quotes, no quotes inside). */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }

    /** A P_h(1) cell of the report: mean [lo, hi]. */
    static String cell(List<String> r) {
        return String.format(Locale.ROOT, "%s [%s, %s]", r.get(12), r.get(13), r.get(14));
    }
}
