package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.privacylab.internal.universe.UniverseScan;

/**
 * Experiment 1: one filter. P_h(1), P_h(N) and the false positives against N and the target rate, for the 2014 and
 * today's bitcoinj wallets, measured over many clients by scanning the universe, beside the analytic model.
 */
public final class SingleFilterExperiment {
    static final double[] RATES = {1e-5, 1e-4, 5e-4, 1e-3, 5e-3};
    /** The wallets compared here. */
    static final List<Wallets.Model> MODELS = List.of(Wallets.Model.Y2014, Wallets.Model.TODAY);

    private SingleFilterExperiment() {}

    /** Where scanned cells with no false positive at all are marked on the log axis. */
    static final double ZERO_AT = 1e-3;

    private record Cell(Wallets.Model model, double rate, int n) {}

    /** The columns of exp1_summary.csv. */
    static final String[] SUMMARY_COLUMNS = {
        "model",
        "target_rate",
        "N",
        "clients",
        "scanned_clients",
        "filter_bytes",
        "hash_funcs",
        "expected_fp",
        "expected_fp_lo",
        "expected_fp_hi",
        "scanned_mean_fp",
        "analytic_fp",
        "target_rate_fp",
        "ph1",
        "ph1_lo",
        "ph1_hi",
        "scanned_ph1",
        "log10_phN"
    };

    public static void run(Lab lab) {
        Path dir = lab.dir("exp1-single-filter");
        int[] ns = lab.quick() ? new int[] {1, 10, 100} : new int[] {1, 2, 5, 10, 20, 50, 100, 200, 500};
        int clients = lab.quick() ? 4 : 50;
        long u = lab.universe();

        int scanned = lab.quick() ? 2 : 1;
        List<Cell> cells = new ArrayList<>();
        List<Subject> subjects = new ArrayList<>();
        List<Integer> clientOf = new ArrayList<>();
        for (Wallets.Model model : MODELS) {
            for (int c = 0; c < clients; c++) {
                Wallets.Client client = Wallets.client(model, lab.seed("exp1/client", model.ordinal(), c));
                for (int n : ns) {
                    List<byte[]> hashes = client.growTo(n);
                    for (int r = 0; r < RATES.length; r++) {
                        int tweak = lab.tweak("exp1", model.ordinal(), c, n, r);
                        subjects.add(Subject.of(client.filter(RATES[r], tweak), client.elementCount(), hashes));
                        cells.add(new Cell(model, RATES[r], n));
                        clientOf.add(c);
                    }
                }
            }
            lab.log().printf("exp1: built filters of %d %s clients%n", clients, model.label());
        }
        // Only the first `scanned` clients of each model are scanned against the universe (the costly part).
        List<FastBloom> fast = new ArrayList<>();
        int[] scanIndex = new int[subjects.size()];
        java.util.Arrays.fill(scanIndex, -1);
        for (int i = 0; i < subjects.size(); i++) {
            if (clientOf.get(i) < scanned) {
                scanIndex[i] = fast.size();
                fast.add(subjects.get(i).fast());
            }
        }
        // The paper comparison's scanned filters ride in the same passes.
        PaperComparison.Prepared paper = PaperComparison.prepare(lab);
        int paperOffset = fast.size();
        fast.addAll(paper.toScan());
        List<UniverseScan.Histogram> hs = lab.scanAll("exp1", u, fast, false);

        Csv raw = new Csv(
                "model",
                "target_rate",
                "N",
                "client",
                "filter_bytes",
                "hash_funcs",
                "elements_inserted",
                "bit_density",
                "expected_fp",
                "expected_ph1",
                "scanned_false_positives",
                "scanned_ph1");
        Map<Cell, List<Integer>> byCell = new LinkedHashMap<>();
        for (int i = 0; i < subjects.size(); i++) {
            Subject s = subjects.get(i);
            Cell cell = cells.get(i);
            double lambda = s.densityRate() * u;
            String fp = "";
            String ph = "";
            if (scanIndex[i] >= 0) {
                int k = scanIndex[i];
                long f = hs.get(k / UniverseScan.MAX_FILTERS).hashMatchesAll(k % UniverseScan.MAX_FILTERS);
                fp = Long.toString(f);
                ph = Csv.format(Metrics.ph(cell.n(), f, 1));
            }
            raw.row(
                    cell.model().name(),
                    cell.rate(),
                    cell.n(),
                    clientOf.get(i),
                    s.sizeBytes(),
                    s.hashFuncs(),
                    s.elements(),
                    s.density(),
                    lambda,
                    PaperComparison.expectedPh(cell.n(), lambda, 1),
                    fp,
                    ph);
            byCell.computeIfAbsent(cell, k -> new ArrayList<>()).add(i);
        }
        raw.write(dir.resolve("exp1_raw.csv"));

        Csv summary = new Csv(SUMMARY_COLUMNS);
        for (Map.Entry<Cell, List<Integer>> e : byCell.entrySet()) {
            Cell cell = e.getKey();
            List<Double> lambdas = new ArrayList<>();
            List<Double> ph1 = new ArrayList<>();
            List<Double> scannedFp = new ArrayList<>();
            List<Double> scannedPh = new ArrayList<>();
            List<Double> modelRates = new ArrayList<>();
            for (int i : e.getValue()) {
                double lambda = subjects.get(i).densityRate() * u;
                lambdas.add(lambda);
                ph1.add(PaperComparison.expectedPh(cell.n(), lambda, 1));
                modelRates.add(subjects.get(i).modelRate());
                if (scanIndex[i] >= 0) {
                    int k = scanIndex[i];
                    long f = hs.get(k / UniverseScan.MAX_FILTERS).hashMatchesAll(k % UniverseScan.MAX_FILTERS);
                    scannedFp.add((double) f);
                    scannedPh.add(Metrics.ph(cell.n(), f, 1));
                }
            }
            Subject first = subjects.get(e.getValue().get(0));
            double analyticFp = Metrics.expectedFalsePositives(Stats.mean(modelRates), u + cell.n(), cell.n());
            long seedCi = lab.seed("exp1/ci", cell.model().ordinal(), cell.n(), Double.doubleToLongBits(cell.rate()));
            double[] fci = Stats.ci(lambdas, seedCi);
            double[] pci = Stats.ci(ph1, seedCi + 1);
            summary.row(
                    cell.model().name(),
                    cell.rate(),
                    cell.n(),
                    e.getValue().size(),
                    scannedFp.size(),
                    first.sizeBytes(),
                    first.hashFuncs(),
                    Stats.sig(Stats.mean(lambdas), 3),
                    Stats.sig(fci[0], 3),
                    Stats.sig(fci[1], 3),
                    Stats.sig(Stats.mean(scannedFp), 3),
                    Stats.sig(analyticFp, 3),
                    Stats.sig(cell.rate() * u, 3),
                    Stats.sig(Stats.mean(ph1), 3),
                    Stats.sig(pci[0], 3),
                    Stats.sig(pci[1], 3),
                    Stats.sig(Stats.mean(scannedPh), 3),
                    Stats.sig(Metrics.log10PhAll(cell.n(), Stats.mean(lambdas)), 3));
        }
        summary.write(dir.resolve("exp1_summary.csv"));

        for (Wallets.Model model : MODELS) {
            Plot ph = new Plot(
                            "P_h(1) vs N, " + model.label() + ", " + Lab.count(u) + " other addresses",
                            "N (client addresses)",
                            "P_h(1): mean over " + clients + " clients, 95% CI (markers); analytic (dashed)",
                            800)
                    .logX()
                    .yRange(0, 1.05)
                    .legendBelow();
            Plot fp = new Plot(
                            "False positives vs N, " + model.label() + ", " + Lab.count(u) + " other addresses",
                            "N (client addresses)",
                            "false positives (expected per filter, mean and 95% CI)",
                            900)
                    .logX()
                    .logY()
                    .legendBelow();
            for (int g = 0; g < RATES.length; g++) {
                double rate = RATES[g];
                List<Integer> x = new ArrayList<>();
                List<Double> mPh = new ArrayList<>();
                List<Double> phLo = new ArrayList<>();
                List<Double> phHi = new ArrayList<>();
                List<Double> aPh = new ArrayList<>();
                List<Double> mFp = new ArrayList<>();
                List<Double> fpLo = new ArrayList<>();
                List<Double> fpHi = new ArrayList<>();
                List<Integer> sx = new ArrayList<>();
                List<Double> sFp = new ArrayList<>();
                List<Integer> zeroX = new ArrayList<>();
                for (List<String> row : summary.rows()) {
                    if (row.get(0).equals(model.name()) && Double.parseDouble(row.get(1)) == rate) {
                        int n = Integer.parseInt(row.get(2));
                        x.add(n);
                        mFp.add(Double.parseDouble(row.get(7)));
                        fpLo.add(Double.parseDouble(row.get(8)));
                        fpHi.add(Double.parseDouble(row.get(9)));
                        mPh.add(Double.parseDouble(row.get(13)));
                        phLo.add(Double.parseDouble(row.get(14)));
                        phHi.add(Double.parseDouble(row.get(15)));
                        aPh.add(Metrics.ph(n, Double.parseDouble(row.get(11)), 1));
                        double scannedMean = Double.parseDouble(row.get(10));
                        if (scannedMean > 0) {
                            sx.add(n);
                            sFp.add(scannedMean);
                        } else {
                            zeroX.add(n);
                        }
                    }
                }
                String label = "rate " + Csv.format(rate);
                double shift = Math.pow(1.04, g - 2);
                ph.measuredWithCi(label, x, mPh, phLo, phHi, g, shift).model(label + " analytic", x, aPh, g);
                fp.measuredWithCi(label + " expected", x, mFp, fpLo, fpHi, g, shift);
                if (!sx.isEmpty()) {
                    fp.scatter(label + " scanned, " + scanned + " clients", sx, sFp, g);
                }
                fp.zeros(label + " scanned: 0 found (drawn at " + ZERO_AT + ")", zeroX, ZERO_AT, g);
            }
            ph.writePng(dir.resolve("exp1_ph1_" + model.name().toLowerCase() + ".png"));
            fp.writePng(dir.resolve("exp1_fp_" + model.name().toLowerCase() + ".png"));
        }

        Template.Sections text = Template.load("exp1.txt");
        Report rep = lab.report(dir, text, "exp1");
        rep.heading("Setup");
        rep.bullets(text.get("setup")
                .lines(Map.of(
                        "others", Lab.count(u),
                        "universeNote",
                                text.get(lab.quick() ? "universe.quick" : "universe.full")
                                        .render(),
                        "seed", lab.seed(),
                        "clients", clients,
                        "scanned", scanned,
                        "ns", Arrays.toString(ns),
                        "rates", Arrays.toString(RATES))));
        rep.heading("Results");
        rep.image("exp1_ph1_y2014.png", "P_h(1) vs N, 2014 model");
        rep.image("exp1_ph1_today.png", "P_h(1) vs N, today's model");
        rep.image("exp1_fp_y2014.png", "false positives vs N, 2014 model");
        rep.image("exp1_fp_today.png", "false positives vs N, today's model");
        rep.table(summary);
        rep.heading("Reading");
        rep.paragraph(SingleFilterNotes.text(text, summary, u));
        rep.paragraph(text.get("files").render());
        PaperComparison.run(lab, dir, rep, text, paper, i -> {
            int k = paperOffset + i;
            return hs.get(k / UniverseScan.MAX_FILTERS).hashMatchesAll(k % UniverseScan.MAX_FILTERS);
        });
        rep.write();
    }

    /**
     * The words of the results index on the paper comparison, sections {@code questions.paper.*} and
     * {@code questions.ours.*} of {@code index}: whether the paper's model reproduces the printed values, and ours
     * against the model at each N of the P_h table in experiment 1's output directory {@code dir} (if it is there).
     */
    public static Map<String, Object> indexWords(Template.Sections index, Path dir) {
        long pu = Lab.PAPER_UNIVERSE;
        double m5 = PaperComparison.paperModelPh(5, pu, 5);
        double m10 = PaperComparison.paperModelPh(10, pu, 10);
        double m15 = PaperComparison.paperModelPh(15, pu, 15);
        boolean reproduces = PaperPrinted.reproducesPointNineNine(m10)
                && PaperPrinted.n15Section(m5, m10, m15).equals("paper.printed.n15.reproduces");
        Map<String, Object> words = new HashMap<>();
        words.put(
                "paperModel",
                index.get(reproduces ? "questions.paper.reproduces" : "questions.paper.notReproduced")
                        .render());
        Path file = dir.resolve("exp1_paper_ph.csv");
        if (!Files.exists(file)) {
            words.put("ours", index.get("questions.ours.notRun").render());
            return words;
        }
        List<String> higher = new ArrayList<>();
        List<String> equal = new ArrayList<>();
        List<String> lower = new ArrayList<>();
        for (List<String> r : FetchPolicySummary.read(file).rows()) {
            if (r.get(0).equals(r.get(1))) {
                double ours = Double.parseDouble(r.get(4));
                double model = Double.parseDouble(r.get(3));
                (ours > model ? higher : ours == model ? equal : lower).add(r.get(0));
            }
        }
        String ours;
        if (!lower.isEmpty()) {
            ours = index.get("questions.ours.lower").render(Map.of("lower", String.join(", ", lower)));
        } else if (higher.isEmpty()) {
            ours = index.get("questions.ours.equal").render();
        } else if (equal.isEmpty()) {
            ours = index.get("questions.ours.higher").render();
        } else {
            ours = index.get("questions.ours.higherWhereTheyDiffer")
                    .render(Map.of("higher", String.join(", ", higher), "equal", String.join(", ", equal)));
        }
        words.put("ours", ours);
        return words;
    }
}
