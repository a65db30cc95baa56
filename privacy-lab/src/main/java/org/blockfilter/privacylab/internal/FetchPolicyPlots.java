package org.blockfilter.privacylab.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.blockfilter.wallet.sync.FetchPolicy;

/** Experiment 8's frontier plots, from its summary. Stateless. */
final class FetchPolicyPlots {
    private FetchPolicyPlots() {}

    /** The adversaries drawn (indexes into {@link FetchPolicyAdversaries#NAMES}); the table has them all. */
    static final int[] DRAWN = {3, 5, 7, 11, 13, FetchPolicyAdversaries.MAX};

    /** One plot per (N, sources): x blocks downloaded per matched block, y P_h(1), one curve per drawn adversary. */
    static List<String> plots(Path dir, int[] walletSizes, Csv summary) {
        List<String> files = new ArrayList<>();
        for (int n : walletSizes) {
            for (int k : FetchPolicyExperiment.SOURCES) {
                Plot plot = new Plot(
                                "Experiment 8: the real wallet's fetch policy, N = " + n + ", " + k
                                        + (k == 1 ? " source" : " sources"),
                                "blocks downloaded per matched block (mean, 95% CI); one point per policy of the"
                                        + " grid (see the table)",
                                "P_h(1) of the adversary (mean over wallets and chains, 95% CI)",
                                560)
                        .yRange(0, 1.05)
                        .legendBelow();
                List<Double> defaultX = new ArrayList<>();
                for (int d = 0; d < DRAWN.length; d++) {
                    String adversary = FetchPolicyAdversaries.NAMES.get(DRAWN[d]);
                    List<Double> x = new ArrayList<>();
                    List<Double> y = new ArrayList<>();
                    List<Double> lo = new ArrayList<>();
                    List<Double> hi = new ArrayList<>();
                    List<Double> xlo = new ArrayList<>();
                    List<Double> xhi = new ArrayList<>();
                    for (List<String> r : summary.rows()) {
                        if (Integer.parseInt(r.get(0)) == n
                                && Integer.parseInt(r.get(1)) == k
                                && r.get(4).equals(adversary)) {
                            x.add(Double.parseDouble(r.get(8)));
                            xlo.add(Double.parseDouble(r.get(9)));
                            xhi.add(Double.parseDouble(r.get(10)));
                            y.add(Double.parseDouble(r.get(12)));
                            lo.add(Double.parseDouble(r.get(13)));
                            hi.add(Double.parseDouble(r.get(14)));
                            if (r.get(3).equals("yes") && d == 0) {
                                defaultX.add(Double.parseDouble(r.get(8)));
                            }
                        }
                    }
                    if (x.isEmpty()) {
                        continue;
                    }
                    // Points are sorted by bandwidth so each curve reads left to right.
                    Integer[] idx =
                            Stream.iterate(0, i -> i + 1).limit(x.size()).toArray(Integer[]::new);
                    Arrays.sort(idx, Comparator.comparingDouble(x::get));
                    List<Double> xs = new ArrayList<>();
                    List<Double> ys = new ArrayList<>();
                    List<Double> los = new ArrayList<>();
                    List<Double> his = new ArrayList<>();
                    for (int i : idx) {
                        xs.add(x.get(i));
                        ys.add(y.get(i));
                        los.add(lo.get(i));
                        his.add(hi.get(i));
                    }
                    String name = adversary;
                    if (ys.stream().allMatch(v -> v < 0.01)) {
                        name += " (every value below 0.01: on the axis, see the table)";
                    }
                    plot.measuredWithCi(name, xs, ys, los, his, d, (d - 2.5) * 0.015);
                    plot.xIntervals(y, xlo, xhi, d);
                }
                if (!defaultX.isEmpty()) {
                    double dx = defaultX.get(0);
                    plot.modelBlack(
                            "the default policy (" + FetchPolicy.DEFAULT_SPEC + "), dashed line",
                            List.of(dx, dx),
                            List.of(0.0, 1.05));
                }
                String f = "exp8_frontier_n" + n + "_sources" + k + ".png";
                plot.writePng(dir.resolve(f));
                files.add(f);
            }
        }
        return files;
    }
}
