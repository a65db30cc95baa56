package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomMath;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.gcs.SipHash;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Stats;

/**
 * Experiment 5's tables and plots from its measurements: the filters' false-positive rate, the summary of every
 * cell, BIP 37 on the same axes, and the P_h(1) plots. Stateless.
 */
final class Bip158Tables {
    private Bip158Tables() {}

    /** Probes random scripts that are in no block against every filter, through the filter's own values and hash. */
    static Csv measureFalsePositiveRate(MainnetLikeChain chain, int probesPerBlock, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long probes = 0;
        long hits = 0;
        for (int b = 0; b < chain.blocks(); b++) {
            GolombCodedSet f = chain.filter(b);
            long[] values = f.values();
            byte[] key = f.key();
            long k0 = SipHash.keyHalf(key, 0);
            long k1 = SipHash.keyHalf(key, 8);
            long range = (long) f.size() * f.m();
            for (int i = 0; i < probesPerBlock; i++) {
                byte[] s = MainnetLikeChain.script(rnd.nextLong(), -1 - rnd.nextInt(1 << 30));
                long v = GolombCodedSet.hashToRange(SipHash.hash24(k0, k1, s), range);
                if (Arrays.binarySearch(values, v) >= 0) {
                    hits++;
                }
                probes++;
            }
        }
        Csv csv =
                new Csv("measurement", "trials", "matches", "measured_rate", "bip158_rate_1_over_M", "measured_one_in");
        csv.row(
                "random non-member scripts against every block filter",
                probes,
                hits,
                (double) hits / probes,
                1.0 / Bip158.BASIC_M,
                hits == 0 ? Double.NaN : (double) probes / hits);
        return csv;
    }

    /** The columns of exp5_summary.csv. */
    static final String[] SUMMARY_COLUMNS = {
        "N",
        "peers",
        "policy",
        "decoys",
        "adversary",
        "wallets",
        "mean_own_blocks",
        "mean_fp_blocks",
        "mean_downloads",
        "mean_total_MB",
        "mean_candidates",
        "ph1",
        "ph1_lo",
        "ph1_hi",
        "phN",
        "phN_lo",
        "phN_hi"
    };

    /** Mean and 95% bootstrap interval per (N, peers, setting, adversary). */
    static Csv summarise(Lab lab, Csv raw) {
        Map<String, List<List<String>>> groups = new LinkedHashMap<>();
        for (List<String> r : raw.rows()) {
            groups.computeIfAbsent(r.get(1) + "," + r.get(6) + "," + r.get(7) + "," + r.get(8), k -> new ArrayList<>())
                    .add(r);
        }
        Csv s = new Csv(SUMMARY_COLUMNS);
        for (Map.Entry<String, List<List<String>>> e : groups.entrySet()) {
            List<List<String>> rs = e.getValue();
            String[] key = e.getKey().split(",");
            for (int a = 0; a < Bip158Experiment.ADVERSARIES.size(); a++) {
                List<Double> ph1 = column(rs, 12 + 3 * a);
                List<Double> phN = column(rs, 13 + 3 * a);
                double[] c1 = Stats.ci(ph1, lab.seed("exp5/ci1", e.getKey().hashCode(), a));
                double[] cN = Stats.ci(phN, lab.seed("exp5/ciN", e.getKey().hashCode(), a));
                s.row(
                        Integer.parseInt(key[0]),
                        Integer.parseInt(key[1]),
                        key[2],
                        Integer.parseInt(key[3]),
                        Bip158Experiment.ADVERSARIES.get(a),
                        rs.size(),
                        Stats.sig(Stats.mean(column(rs, 4)), 3),
                        Stats.sig(Stats.mean(column(rs, 5)), 2),
                        Stats.sig(Stats.mean(column(rs, 9)), 3),
                        Stats.sig(Stats.mean(column(rs, 10)), 3),
                        Stats.sig(Stats.mean(column(rs, 11 + 3 * a)), 3),
                        Stats.sig(Stats.mean(ph1), 3),
                        Stats.sig(c1[0], 3),
                        Stats.sig(c1[1], 3),
                        Stats.sig(Stats.mean(phN), 3),
                        Stats.sig(cN[0], 3),
                        Stats.sig(cN[1], 3));
            }
        }
        return s;
    }

    private static List<Double> column(List<List<String>> rows, int c) {
        return rows.stream().map(r -> Double.parseDouble(r.get(c))).toList();
    }

    /** The columns of exp5_bip37.csv. */
    static final String[] BIP37_COLUMNS = {
        "wallet",
        "N",
        "target_rate",
        "filter_bytes",
        "hash_funcs",
        "model_fp_rate",
        "scripts_in_range",
        "expected_false_positives",
        "ph1",
        "total_MB"
    };

    /**
     * BIP 37 on the same axes: the pre-HD bitcoinj wallet's filter (N keys, 2N elements, capacity 2N + 100), sized
     * by bitcoinj's own {@code BloomFilter} constructor (as in experiment 1), against this chain's scripts in the
     * synced range; bandwidth = filter + a merkleblock per synced block + one transaction (2.5 elements' bytes) per
     * matched element.
     */
    static Csv bip37(MainnetLikeChain chain, int[][] own, MainnetLikeChain.Params p) {
        Csv csv = new Csv(BIP37_COLUMNS);
        double txBytes = 2.5 * p.bytesPerElement();
        for (int n : p.walletSizes()) {
            List<MainnetLikeChain.Wallet> ofN =
                    chain.wallets().stream().filter(w -> w.n() == n).toList();
            double synced = ofN.stream()
                    .mapToDouble(w -> chain.blocks() - w.birth())
                    .average()
                    .orElse(0);
            double ownTx = ofN.stream()
                    .mapToDouble(w -> own[w.index()].length)
                    .average()
                    .orElse(0);
            double elements = ofN.stream()
                    .mapToDouble(w -> {
                        long e = 0;
                        for (int b = w.birth(); b < chain.blocks(); b++) {
                            e += chain.occ.elements(b);
                        }
                        return e;
                    })
                    .average()
                    .orElse(0);
            double universe = ofN.stream()
                    .mapToDouble(w -> scriptsFrom(chain, w.birth()))
                    .average()
                    .orElse(0);
            for (double rate : SingleFilterExperiment.RATES) {
                Bip37Filter f = bip37Filter(n, rate);
                int bytes = f.sizeBytes();
                int k = f.hashFuncs();
                double pf = BloomMath.falsePositiveRate(8L * bytes, k, 2L * n);
                double fp = pf * (universe - n);
                double mb =
                        (bytes + synced * Bip158Experiment.MERKLEBLOCK_BYTES + (ownTx + pf * elements) * txBytes) / 1e6;
                csv.row(
                        Wallets.Model.Y2014.label(),
                        n,
                        rate,
                        bytes,
                        k,
                        Stats.sig(pf, 3),
                        Math.round(universe),
                        Stats.sig(fp, 3),
                        Stats.sig(n / (n + fp), 3),
                        Stats.sig(mb, 3));
            }
        }
        return csv;
    }

    /** The pre-HD bitcoinj wallet's filter for N keys (2N elements, capacity 2N + 100), sized by bitcoinj itself. */
    static Bip37Filter bip37Filter(int n, double rate) {
        return Bip37Filter.fromBitcoinj(new BloomFilter(2 * n + Wallets.FILTER_MERGER_HEADROOM, rate, 0));
    }

    /** Distinct scripts appearing in blocks [from, tip). */
    static long scriptsFrom(MainnetLikeChain chain, int from) {
        Occurrences o = chain.occ;
        long n = 0;
        for (int s = 0; s < o.scripts; s++) {
            int end = o.scriptStart[s + 1];
            if (end > o.scriptStart[s] && o.scriptBlocks[end - 1] >= from) {
                n++;
            }
        }
        return n;
    }

    static List<String> plots(Path dir, MainnetLikeChain.Params p, Csv summary) {
        List<String> files = new ArrayList<>();
        for (int n : p.walletSizes()) {
            for (int k : Bip158Experiment.PEERS) {
                Map<Integer, String> ticks = new java.util.TreeMap<>();
                for (List<String> r : summary.rows()) {
                    if (Integer.parseInt(r.get(0)) == n && Integer.parseInt(r.get(1)) == k) {
                        int si = Bip158Experiment.settingIndex(r.get(2), Integer.parseInt(r.get(3)));
                        Bip158Experiment.Setting st = Bip158Experiment.SETTINGS.get(si);
                        String shortName = st.policy() == Bip158Experiment.Policy.NONE
                                ? "none"
                                : st.policy().name().toLowerCase() + " x" + st.decoys();
                        ticks.put(si, shortName + " (" + r.get(9) + " MB)");
                    }
                }
                // The settings are categories: one evenly spaced position per setting measured in this plot.
                Map<Integer, Integer> position = new java.util.HashMap<>();
                List<String> labels = new ArrayList<>();
                for (Map.Entry<Integer, String> t : ticks.entrySet()) {
                    position.put(t.getKey(), labels.size());
                    labels.add(t.getValue());
                }
                Plot plot = new Plot(
                                "P_h(1) by adversary and decoy setting, N = " + n + ", "
                                        + (k == 1
                                                ? "observer serves every download"
                                                : "observer is 1 of " + k + " peers"),
                                "decoy setting (mean MB of filters + blocks downloaded)",
                                "P_h(1), mean over wallets, 95% bootstrap CI",
                                720)
                        .yRange(-0.02, 1.05)
                        .categories(labels, 1.02)
                        .legendBelow();
                for (int a = 0; a < Bip158Experiment.ADVERSARIES.size(); a++) {
                    List<Integer> x = new ArrayList<>();
                    List<Double> y = new ArrayList<>();
                    List<Double> lo = new ArrayList<>();
                    List<Double> hi = new ArrayList<>();
                    for (List<String> r : summary.rows()) {
                        if (Integer.parseInt(r.get(0)) == n
                                && Integer.parseInt(r.get(1)) == k
                                && r.get(4).equals(Bip158Experiment.ADVERSARIES.get(a))) {
                            x.add(position.get(Bip158Experiment.settingIndex(r.get(2), Integer.parseInt(r.get(3)))));
                            y.add(Double.parseDouble(r.get(11)));
                            lo.add(Double.parseDouble(r.get(12)));
                            hi.add(Double.parseDouble(r.get(13)));
                        }
                    }
                    String name = Bip158Experiment.ADVERSARIES.get(a);
                    if (!y.isEmpty() && y.stream().allMatch(v -> v < 0.01)) {
                        name += " (every value below 0.01: on the axis, see the table)";
                    }
                    plot.measuredWithCi(
                            name, x, y, lo, hi, a, (a - (Bip158Experiment.ADVERSARIES.size() - 1) / 2.0) * 0.05, false);
                }
                String f = "exp5_ph1_n" + n + "_peers" + k + ".png";
                plot.writePng(dir.resolve(f));
                files.add(f);
            }
        }
        return files;
    }
}
