package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;

/**
 * Experiment 8's frontier plots, from its summary: per (N, sources) every policy measured as a point (P_h(1) against
 * the blocks it downloads per matched block, both with 95% intervals), named by its policy, and per adversary the
 * lower envelope of the points (the Pareto frontier: the least P_h(1) any measured policy reaches for a bandwidth,
 * a step at each policy that lowers it). Block-by-block rows are the same policies used another way and are left to
 * the tables. Stateless.
 */
final class FetchPolicyPlots {
    private FetchPolicyPlots() {}

    /** The adversaries drawn (indexes into {@link FetchPolicyAdversaries#NAMES}); the table has them all. */
    static final int[] DRAWN = {3, 7, 11, 13, 15, FetchPolicyAdversaries.MAX};

    /** One plot per (N, sources): x blocks downloaded per matched block, y P_h(1), per drawn adversary. */
    static List<String> plots(Path dir, int[] walletSizes, Csv summary) {
        List<String> files = new ArrayList<>();
        for (int n : walletSizes) {
            for (int k : FetchPolicyExperiment.SOURCES) {
                Plot plot = new Plot(
                                "Experiment 8: the real wallet's fetch policy, N = " + n + ", " + k
                                        + (k == 1 ? " source" : " sources"),
                                "blocks downloaded per matched block (mean, 95% CI); each point a policy, named"
                                        + " (spread and shuffle left out of the names)",
                                "P_h(1) of the adversary (mean over wallets and chains, 95% CI)",
                                600)
                        .yRange(0, 1.1)
                        .legendBelow();
                // Per policy (report order): x and its interval; per drawn adversary: y and its interval.
                Map<String, double[]> xs = new LinkedHashMap<>();
                Map<String, Map<Integer, double[]>> ys = new LinkedHashMap<>();
                for (List<String> r : summary.rows()) {
                    if (Integer.parseInt(r.get(0)) != n
                            || Integer.parseInt(r.get(1)) != k
                            || new FetchPolicyExperiment.Setting(k, r.get(2)).incremental()) {
                        continue;
                    }
                    int a = FetchPolicyAdversaries.NAMES.indexOf(r.get(4));
                    xs.put(r.get(2), new double[] {num(r, 8), num(r, 9), num(r, 10)});
                    ys.computeIfAbsent(r.get(2), s -> new LinkedHashMap<>())
                            .put(a, new double[] {num(r, 12), num(r, 13), num(r, 14)});
                }
                if (xs.isEmpty()) {
                    continue;
                }
                List<String> specs = new ArrayList<>(xs.keySet());
                for (int d = 0; d < DRAWN.length; d++) {
                    int a = DRAWN[d];
                    List<Double> x = new ArrayList<>();
                    List<Double> y = new ArrayList<>();
                    List<Double> lo = new ArrayList<>();
                    List<Double> hi = new ArrayList<>();
                    List<Double> xlo = new ArrayList<>();
                    List<Double> xhi = new ArrayList<>();
                    List<double[]> points = new ArrayList<>();
                    for (String spec : specs) {
                        double[] py = ys.get(spec).get(a);
                        if (py == null) {
                            continue;
                        }
                        double[] px = xs.get(spec);
                        x.add(px[0]);
                        xlo.add(px[1]);
                        xhi.add(px[2]);
                        y.add(py[0]);
                        lo.add(py[1]);
                        hi.add(py[2]);
                        points.add(new double[] {px[0], py[0]});
                    }
                    if (x.isEmpty()) {
                        continue;
                    }
                    String name = FetchPolicyAdversaries.NAMES.get(a);
                    if (y.stream().allMatch(v -> v < 0.01)) {
                        name += " (every value below 0.01: on the axis, see the table)";
                    }
                    plot.measuredWithCi(name + ": policies", x, y, lo, hi, d, (d - 2.0) * 0.015, false);
                    plot.xIntervals(y, xlo, xhi, d);
                    List<double[]> steps = steps(lowerEnvelope(points), max(x));
                    plot.model(
                            name + ": lower envelope (dashed)",
                            steps.stream().map(p -> p[0]).toList(),
                            steps.stream().map(p -> p[1]).toList(),
                            d);
                }
                label(plot, specs, xs, ys);
                String f = "exp8_frontier_n" + n + "_sources" + k + ".png";
                plot.writePng(dir.resolve(f));
                files.add(f);
            }
        }
        return files;
    }

    /**
     * Names each policy's points once, above its highest drawn point (the maximum over adversaries is the highest),
     * every other one (in bandwidth order) below its lowest so that names of policies of similar cost do not overlap.
     */
    private static void label(
            Plot plot, List<String> specs, Map<String, double[]> xs, Map<String, Map<Integer, double[]>> ys) {
        List<String> byX = new ArrayList<>(specs);
        byX.sort(Comparator.comparingDouble(s -> xs.get(s)[0]));
        for (int i = 0; i < byX.size(); i++) {
            String spec = byX.get(i);
            double top = 0;
            double bottom = 1;
            for (int a : DRAWN) {
                double[] py = ys.get(spec).get(a);
                if (py != null) {
                    top = Math.max(top, py[0]);
                    bottom = Math.min(bottom, py[0]);
                }
            }
            double y = i % 2 == 0 ? Math.min(1.07, top + 0.04) : Math.max(0.02, bottom - 0.04);
            plot.label(shortName(spec), xs.get(spec)[0], y);
        }
    }

    /** A policy's name on a plot: its spec without {@code spread} and {@code shuffle} ("spread" alone if that is all). */
    static String shortName(String spec) {
        if (spec.equals("spread,shuffle") || spec.equals("spread")) {
            return "spread";
        }
        String s = spec.replace("spread,", "").replace(",shuffle", "");
        boolean isDefault = new FetchPolicyExperiment.Setting(1, spec).isDefault();
        return isDefault ? s + " (default)" : s;
    }

    /**
     * The lower envelope of points {x, y}: those no other point dominates (another at no more bandwidth with a lower
     * P_h(1), or at less bandwidth with as low a one), in increasing x (and so decreasing y).
     */
    static List<double[]> lowerEnvelope(List<double[]> points) {
        List<double[]> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.<double[]>comparingDouble(p -> p[0]).thenComparingDouble(p -> p[1]));
        List<double[]> out = new ArrayList<>();
        for (double[] p : sorted) {
            if (out.isEmpty() || p[1] < out.get(out.size() - 1)[1]) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The envelope as the least P_h(1) reachable with at most a bandwidth: flat from each frontier point to the next,
     * a drop there, and flat on to {@code xEnd}.
     */
    static List<double[]> steps(List<double[]> frontier, double xEnd) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < frontier.size(); i++) {
            double[] p = frontier.get(i);
            if (i > 0) {
                out.add(new double[] {p[0], frontier.get(i - 1)[1]});
            }
            out.add(p);
        }
        double[] last = frontier.get(frontier.size() - 1);
        if (xEnd > last[0]) {
            out.add(new double[] {xEnd, last[1]});
        }
        return out;
    }

    private static double max(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static double num(List<String> r, int i) {
        return Double.parseDouble(r.get(i));
    }
}
