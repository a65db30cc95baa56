package org.blockfilter.privacylab.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Experiment 1: one filter. P_h(1), P_h(N) and the false positives against N and the target rate, for the 2014 and
 * today's bitcoinj wallets, measured over many clients by scanning the universe, beside the analytic model.
 */
public final class SingleFilterExperiment {
    static final double[] RATES = {1e-5, 1e-4, 5e-4, 1e-3, 5e-3};

    private SingleFilterExperiment() {}

    private record Cell(Wallets.Model model, double rate, int n) {}

    public static void run(Lab lab) {
        Path dir = lab.dir("exp1-single-filter");
        int[] ns = lab.quick() ? new int[] {1, 10, 100} : new int[] {1, 2, 5, 10, 20, 50, 100, 200, 500};
        int clients = lab.quick() ? 2 : 3;
        long u = lab.universe();

        List<Cell> cells = new ArrayList<>();
        List<Subject> subjects = new ArrayList<>();
        List<Integer> clientOf = new ArrayList<>();
        for (Wallets.Model model : Wallets.Model.values()) {
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
                lab.log().printf("exp1: built filters of %s client %d/%d%n", model.label(), c + 1, clients);
            }
        }
        List<FastBloom> fast = subjects.stream().map(Subject::fast).toList();
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
                "false_positives",
                "measured_fp_rate",
                "model_fp_rate",
                "ph1",
                "log10_phN");
        Map<Cell, List<Integer>> byCell = new LinkedHashMap<>();
        for (int i = 0; i < subjects.size(); i++) {
            Subject s = subjects.get(i);
            Cell cell = cells.get(i);
            long fp = hs.get(i / UniverseScan.MAX_FILTERS).hashMatchesAll(i % UniverseScan.MAX_FILTERS);
            raw.row(
                    cell.model().name(),
                    cell.rate(),
                    cell.n(),
                    clientOf.get(i),
                    s.sizeBytes(),
                    s.hashFuncs(),
                    s.elements(),
                    s.density(),
                    fp,
                    (double) fp / u,
                    s.modelRate(),
                    Metrics.ph(cell.n(), fp, 1),
                    Metrics.log10PhAll(cell.n(), fp));
            byCell.computeIfAbsent(cell, k -> new ArrayList<>()).add(i);
        }
        raw.write(dir.resolve("exp1_raw.csv"));

        Csv summary = new Csv(
                "model",
                "target_rate",
                "N",
                "clients",
                "filter_bytes",
                "hash_funcs",
                "mean_fp",
                "sd_fp",
                "analytic_fp",
                "target_rate_fp",
                "mean_ph1",
                "analytic_ph1",
                "mean_log10_phN",
                "analytic_log10_phN");
        Map<String, double[][]> plotData = new LinkedHashMap<>();
        for (Map.Entry<Cell, List<Integer>> e : byCell.entrySet()) {
            Cell cell = e.getKey();
            List<Double> fps = new ArrayList<>();
            List<Double> ph1 = new ArrayList<>();
            List<Double> phN = new ArrayList<>();
            List<Double> modelRates = new ArrayList<>();
            for (int i : e.getValue()) {
                long fp = hs.get(i / UniverseScan.MAX_FILTERS).hashMatchesAll(i % UniverseScan.MAX_FILTERS);
                fps.add((double) fp);
                ph1.add(Metrics.ph(cell.n(), fp, 1));
                phN.add(Metrics.log10PhAll(cell.n(), fp));
                modelRates.add(subjects.get(i).modelRate());
            }
            Subject first = subjects.get(e.getValue().get(0));
            double analyticFp = Metrics.expectedFalsePositives(Stats.mean(modelRates), u + cell.n(), cell.n());
            summary.row(
                    cell.model().name(),
                    cell.rate(),
                    cell.n(),
                    e.getValue().size(),
                    first.sizeBytes(),
                    first.hashFuncs(),
                    Stats.mean(fps),
                    Stats.sd(fps),
                    analyticFp,
                    cell.rate() * u,
                    Stats.mean(ph1),
                    Metrics.ph(cell.n(), analyticFp, 1),
                    Stats.mean(phN),
                    Metrics.log10PhAll(cell.n(), analyticFp));
        }
        summary.write(dir.resolve("exp1_summary.csv"));

        for (Wallets.Model model : Wallets.Model.values()) {
            Plot ph = new Plot(
                            "P_h(1) vs N, " + model.label() + ", " + Lab.count(u) + " other addresses",
                            "N (client addresses)",
                            "P_h(1)")
                    .logX()
                    .yRange(0, 1.05);
            Plot fp = new Plot(
                            "False positives vs N, " + model.label(),
                            "N (client addresses)",
                            "false positives, mean over clients (below 0.5 drawn at 0.5)")
                    .logX()
                    .logY();
            for (int g = 0; g < RATES.length; g++) {
                double rate = RATES[g];
                List<Integer> x = new ArrayList<>();
                List<Double> mPh = new ArrayList<>();
                List<Double> aPh = new ArrayList<>();
                List<Double> mFp = new ArrayList<>();
                List<Double> aFp = new ArrayList<>();
                for (List<String> row : summary.rows()) {
                    if (row.get(0).equals(model.name()) && Double.parseDouble(row.get(1)) == rate) {
                        x.add(Integer.parseInt(row.get(2)));
                        mFp.add(Math.max(0.5, Double.parseDouble(row.get(6))));
                        aFp.add(Math.max(0.5, Double.parseDouble(row.get(8))));
                        mPh.add(Double.parseDouble(row.get(10)));
                        aPh.add(Double.parseDouble(row.get(11)));
                    }
                }
                String label = "rate " + Csv.format(rate);
                ph.measured(label + " measured", x, mPh, g).model(label + " analytic", x, aPh, g);
                fp.measured(label + " measured", x, mFp, g).model(label + " analytic", x, aFp, g);
            }
            ph.writePng(dir.resolve("exp1_ph1_" + model.name().toLowerCase() + ".png"));
            fp.writePng(dir.resolve("exp1_fp_" + model.name().toLowerCase() + ".png"));
        }

        Report rep = new Report(dir, "Experiment 1: a single Bloom filter");
        rep.paragraph(lab.regenerate("exp1"));
        rep.heading("Setup");
        rep.bullets(
                List.of(
                        "Universe: the client's N addresses plus " + Lab.count(u) + " other addresses ("
                                + (lab.quick() ? "QUICK mode, not the paper's 33M" : "the paper's ~33M")
                                + "), generated from seed " + lab.seed()
                                + " and streamed; every one is tested against every filter.",
                        "Clients: " + clients + " independent wallets per model; N in " + java.util.Arrays.toString(ns)
                                + "; target rates " + java.util.Arrays.toString(RATES) + "; a fresh tweak per filter.",
                        "2014 model: bitcoinj basic key chain with N imported keys (pubkey and its hash inserted per key), filter sized for 2N + 100 elements (FilterMerger's headroom), built by bitcoinj's `KeyChainGroup.getBloomFilter`.",
                        "Today's model: bitcoinj 0.17 HD wallet (`KeyChainGroup.fromSeed`, default lookahead) with N issued receive keys; the filter also holds the unused lookahead keys of both chains, and is sized for its element count + 100.",
                        "Measured: false positives F = other addresses that match; P_h(1) = N/(N+F); log10 P_h(N) = -log10 C(N+F, N), averaged over clients. Analytic: F = P_f x |others|, with P_f = (1 - e^{-kn/m})^k for the filter's real m, k and inserted n; `target_rate_fp` is the naive P_f = target rate."));
        rep.heading("Results");
        rep.image("exp1_ph1_y2014.png", "P_h(1) vs N, 2014 model");
        rep.image("exp1_ph1_today.png", "P_h(1) vs N, today's model");
        rep.image("exp1_fp_y2014.png", "false positives vs N, 2014 model");
        rep.image("exp1_fp_today.png", "false positives vs N, today's model");
        rep.table(summary);
        rep.heading("Reading");
        rep.paragraph(SingleFilterNotes.text(summary, u));
        rep.paragraph("Raw per-client numbers: `exp1_raw.csv`; the table above: `exp1_summary.csv`.");
        rep.write();
    }
}
