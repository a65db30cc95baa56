package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.privacylab.internal.universe.UniverseScan;

/**
 * Experiment 3: bitcoinj inserts each key's public key and its hash. An adversary who knows a candidate's public key
 * (it is revealed once the address has spent) requires both to match, which squares the false-positive rate.
 */
public final class PubKeyAndHashExperiment {
    private PubKeyAndHashExperiment() {}

    private record Cell(double rate, int n) {}

    /** The columns of exp3_summary.csv. */
    static final String[] SUMMARY_COLUMNS = {
        "target_rate",
        "N",
        "clients",
        "mean_fp_hash",
        "analytic_fp_hash",
        "mean_fp_both",
        "analytic_fp_both",
        "mean_ph1_hash_only",
        "mean_ph1_both",
        "analytic_ph1_both"
    };

    public static void run(Lab lab) {
        Path dir = lab.dir("exp3-pubkey-and-hash");
        long u = lab.universe();
        int[] ns = lab.quick() ? new int[] {10, 100} : new int[] {1, 10, 100, 500};
        int clients = lab.quick() ? 2 : 3;
        double[] rates = SingleFilterExperiment.RATES;

        List<Subject> subjects = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            Wallets.Client client = Wallets.client(Wallets.Model.Y2014, lab.seed("exp3/client", c));
            for (int n : ns) {
                List<byte[]> hashes = client.growTo(n);
                for (int r = 0; r < rates.length; r++) {
                    subjects.add(Subject.of(
                            client.filter(rates[r], lab.tweak("exp3", c, n, r)), client.elementCount(), hashes));
                    cells.add(new Cell(rates[r], n));
                }
            }
        }
        List<UniverseScan.Histogram> hs =
                lab.scanAll("exp3", u, subjects.stream().map(Subject::fast).toList(), true);
        int batch = UniverseScan.MAX_FILTERS_WITH_PUBKEYS;

        Csv raw = new Csv(
                "target_rate",
                "N",
                "filter_bytes",
                "hash_funcs",
                "model_fp_rate",
                "fp_hash",
                "fp_pubkey",
                "fp_both",
                "measured_rate_hash",
                "measured_rate_both",
                "model_rate_squared",
                "ph1_hash_only",
                "ph1_both");
        Map<Cell, List<double[]>> byCell = new LinkedHashMap<>();
        for (int i = 0; i < subjects.size(); i++) {
            Subject s = subjects.get(i);
            UniverseScan.Histogram h = hs.get(i / batch);
            int f = i % batch;
            long fpHash = h.hashMatchesAll(f);
            long fpKey = h.pubKeyMatches(f);
            long fpBoth = h.bothMatch(f);
            Cell cell = cells.get(i);
            double p = s.modelRate();
            raw.row(
                    cell.rate(),
                    cell.n(),
                    s.sizeBytes(),
                    s.hashFuncs(),
                    p,
                    fpHash,
                    fpKey,
                    fpBoth,
                    (double) fpHash / u,
                    (double) fpBoth / u,
                    p * p,
                    Metrics.ph(cell.n(), fpHash, 1),
                    Metrics.ph(cell.n(), fpBoth, 1));
            byCell.computeIfAbsent(cell, k -> new ArrayList<>()).add(new double[] {fpHash, fpBoth, p});
        }
        raw.write(dir.resolve("exp3_raw.csv"));

        Csv summary = new Csv(SUMMARY_COLUMNS);
        for (Map.Entry<Cell, List<double[]>> e : byCell.entrySet()) {
            List<Double> fh = new ArrayList<>();
            List<Double> fb = new ArrayList<>();
            List<Double> ph = new ArrayList<>();
            List<Double> pb = new ArrayList<>();
            List<Double> p = new ArrayList<>();
            List<Double> p2 = new ArrayList<>();
            int n = e.getKey().n();
            for (double[] v : e.getValue()) {
                fh.add(v[0]);
                fb.add(v[1]);
                ph.add(Metrics.ph(n, v[0], 1));
                pb.add(Metrics.ph(n, v[1], 1));
                p.add(v[2]);
                p2.add(v[2] * v[2]);
            }
            double aBoth = Stats.mean(p2) * u;
            summary.row(
                    e.getKey().rate(),
                    n,
                    e.getValue().size(),
                    Stats.mean(fh),
                    Stats.mean(p) * u,
                    Stats.mean(fb),
                    aBoth,
                    Stats.mean(ph),
                    Stats.mean(pb),
                    Metrics.ph(n, aBoth, 1));
        }
        summary.write(dir.resolve("exp3_summary.csv"));

        Plot plot = new Plot(
                        "P_h(1): testing the hash only vs public key and hash (2014 model)",
                        "N (client addresses)",
                        "P_h(1)")
                .logX()
                .yRange(0, 1.05);
        for (int g = 0; g < rates.length; g++) {
            double rate = rates[g];
            List<Integer> x = new ArrayList<>();
            List<Double> hashOnly = new ArrayList<>();
            List<Double> both = new ArrayList<>();
            for (List<String> row : summary.rows()) {
                if (Double.parseDouble(row.get(0)) == rate) {
                    x.add(Integer.parseInt(row.get(1)));
                    hashOnly.add(Double.parseDouble(row.get(7)));
                    both.add(Double.parseDouble(row.get(8)));
                }
            }
            plot.model("rate " + Csv.format(rate) + " hash only (dashed)", x, hashOnly, g)
                    .measured("rate " + Csv.format(rate) + " pubkey+hash", x, both, g);
        }
        plot.writePng(dir.resolve("exp3_ph1.png"));

        ratePlot(raw, u, dir);

        Template.Sections text = Template.load("exp3.txt");
        Report rep = lab.report(dir, text, "exp3");
        rep.heading("Setup");
        rep.bullets(text.get("setup")
                .lines(Map.of(
                        "ns", Arrays.toString(ns),
                        "rates", Arrays.toString(rates),
                        "clients", clients,
                        "others", Lab.count(u),
                        "quickNote", lab.quick() ? " (QUICK mode)" : "",
                        "seed", lab.seed())));
        rep.heading("Results");
        rep.image("exp3_ph1.png", "P_h(1) hash only vs pubkey and hash");
        rep.image("exp3_rate.png", "effective rate vs P_f");
        rep.table(summary);
        rep.heading("Reading");
        rep.paragraph(reading(text, summary, u));
        rep.write();
    }

    /** Fewer false positives of both than this, on average, at every N are "a handful". */
    static final double HANDFUL = 10;

    /** P_h(1) at least this is "near 1". */
    static final double NEAR_ONE = 0.99;

    /** A cell's matches of both sit "on the P_f^2 line" (of a log-log plot) within this factor of P_f^2 x |others|. */
    static final double ON_LINE = 1.5;

    /** A cell is set against the P_f^2 line only when its clients together expect at least this many matches. */
    static final double CHECKABLE = 10;

    /** The reading paragraph from the summary table: each reading chosen from its numbers. */
    static String reading(Template.Sections text, Csv summary, long u) {
        List<String> off = null;
        boolean checked = false;
        List<String> worst2014 = null;
        double sumFp2014 = 0;
        for (List<String> r : summary.rows()) {
            double clients = Double.parseDouble(r.get(2));
            double measured = Double.parseDouble(r.get(5));
            double analytic = Double.parseDouble(r.get(6));
            if (analytic * clients >= CHECKABLE) {
                checked = true;
                if (off == null && (measured > ON_LINE * analytic || measured * ON_LINE < analytic)) {
                    off = r;
                }
            }
            if (Double.parseDouble(r.get(0)) == Wallets.RATE_2014) {
                sumFp2014 += measured;
                if (worst2014 == null || Double.parseDouble(r.get(8)) < Double.parseDouble(worst2014.get(8))) {
                    worst2014 = r;
                }
            }
        }
        String line = off != null
                ? text.get("reading.line.off")
                        .render(Map.of(
                                "rate", off.get(0), "n", off.get(1), "measured", off.get(5), "analytic", off.get(6)))
                : text.get(checked ? "reading.line.on" : "reading.line.few").render();
        if (worst2014 == null) {
            throw new IllegalStateException("exp3's summary has no row at the 2014 rate " + Wallets.RATE_2014);
        }
        String rate2014;
        if (sumFp2014 == 0) {
            rate2014 = text.get("reading.rate2014.none").render(Map.of("others", Lab.count(u)));
        } else if (Double.parseDouble(worst2014.get(8)) >= NEAR_ONE && maxFp(summary, Wallets.RATE_2014) < HANDFUL) {
            rate2014 = text.get("reading.rate2014.handful").render(Map.of("others", Lab.count(u)));
        } else {
            rate2014 = text.get("reading.rate2014.more")
                    .render(Map.of(
                            "fp", worst2014.get(5),
                            "others", Lab.count(u),
                            "n", worst2014.get(1),
                            "ph1", worst2014.get(8)));
        }
        return text.get("reading").render(Map.of("line", line, "rate2014", rate2014));
    }

    private static double maxFp(Csv summary, double rate) {
        return summary.rows().stream()
                .filter(r -> Double.parseDouble(r.get(0)) == rate)
                .mapToDouble(r -> Double.parseDouble(r.get(5)))
                .max()
                .orElse(0);
    }

    /** Below this formula rate a filter expects fewer than 0.03 matches among 33M: not drawn, counted in the title. */
    static final double MIN_DRAWN_RATE = 1e-9;

    /**
     * The effective-rate plot from the raw table: every filter with P_f >= {@link #MIN_DRAWN_RATE}, zeros marked at
     * 1/(2U); the filters below are counted in the title (all of them found 0 matches or they would be listed).
     */
    static void ratePlot(Csv raw, long u, Path dir) {
        double zeroAt = 0.5 / u;
        List<List<String>> drawn = raw.rows().stream()
                .filter(r -> Double.parseDouble(r.get(4)) >= MIN_DRAWN_RATE)
                .sorted((a, b) -> Double.compare(Double.parseDouble(a.get(4)), Double.parseDouble(b.get(4))))
                .toList();
        List<List<String>> hidden = raw.rows().stream()
                .filter(r -> Double.parseDouble(r.get(4)) < MIN_DRAWN_RATE)
                .toList();
        long hiddenMatches = hidden.stream()
                .mapToLong(r -> Long.parseLong(r.get(5)) + Long.parseLong(r.get(7)))
                .sum();
        Plot rate = new Plot(
                        "Effective false-positive rate when both must match (" + drawn.size() + " filters; "
                                + hidden.size() + " with P_f < 1e-9 not drawn, "
                                + hiddenMatches + " matches among them)",
                        "filter's P_f (formula)",
                        "measured rate over " + Lab.count(u) + " addresses",
                        720)
                .logX()
                .logY()
                .legendBelow();
        List<Double> px = new ArrayList<>();
        List<Double> hashY = new ArrayList<>();
        List<Double> hashZero = new ArrayList<>();
        List<Double> bothX = new ArrayList<>();
        List<Double> bothY = new ArrayList<>();
        List<Double> bothZero = new ArrayList<>();
        for (List<String> r : drawn) {
            double p = Double.parseDouble(r.get(4));
            double h = Double.parseDouble(r.get(8));
            double b = Double.parseDouble(r.get(9));
            if (h > 0) {
                px.add(p);
                hashY.add(h);
            } else {
                hashZero.add(p);
            }
            if (b > 0) {
                bothX.add(p);
                bothY.add(b);
            } else {
                bothZero.add(p);
            }
        }
        List<Double> allX =
                drawn.stream().map(r -> Double.parseDouble(r.get(4))).toList();
        if (!px.isEmpty()) {
            rate.scatter("hash only, measured", px, hashY, 0);
        }
        if (!bothX.isEmpty()) {
            rate.scatter("pubkey and hash, measured", bothX, bothY, 3);
        }
        rate.zeros("hash only: 0 matches (drawn at 1/(2U))", hashZero, zeroAt, 0)
                .zeros("pubkey and hash: 0 matches (drawn at 1/(2U))", bothZero, zeroAt, 3);
        if (!allX.isEmpty()) {
            rate.model("P_f", allX, allX, 0)
                    .model(
                            "P_f squared (below 1/(2U) it is not drawn)",
                            allX.stream().filter(x -> x * x >= zeroAt).toList(),
                            allX.stream()
                                    .filter(x -> x * x >= zeroAt)
                                    .map(x -> x * x)
                                    .toList(),
                            3);
        }
        rate.writePng(dir.resolve("exp3_rate.png"));
    }
}
