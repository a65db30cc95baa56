package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.filters.bloom.Bip37;
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
 * Experiment 2: several filters of one wallet with different tweaks (a restart each time), intersected by the
 * adversary. The paper's setting: five filters as the wallet grows through N = 3070, 3120, 3170, 3220, 3270.
 */
public final class MultiFilterExperiment {
    private static final int FILTERS = 5;
    private static final int STEP = 50;
    /** Filters per scan: a multiple of five so that a run's filters share one histogram. */
    private static final int BATCH = 60;

    private MultiFilterExperiment() {}

    private record Setting(String name, Wallets.Model model, double rate, int firstN, int runs) {}

    /** The columns of exp2_filters.csv. */
    static final String[] FILTERS_COLUMNS = {
        "setting",
        "run",
        "filter",
        "N",
        "filter_bytes",
        "hash_funcs",
        "elements_inserted",
        "model_fp_rate",
        "false_positives"
    };

    /** The columns of exp2_summary.csv. */
    static final String[] SUMMARY_COLUMNS = {
        "setting", "filters_intersected", "runs", "mean_fp", "analytic_fp", "mean_ph1", "analytic_ph1", "mean_log10_phN"
    };

    public static void run(Lab lab) {
        Path dir = lab.dir("exp2-multiple-filters");
        long u = lab.universe();
        List<Setting> settings = lab.quick()
                ? List.of(
                        new Setting("small 2014 wallet (quick)", Wallets.Model.Y2014, Wallets.RATE_2014, 300, 2),
                        new Setting("today 1e-5 (quick)", Wallets.Model.TODAY, Wallets.RATE_TODAY, 300, 1))
                : List.of(
                        new Setting("paper: 2014 at 0.0005", Wallets.Model.Y2014, Wallets.RATE_2014, 3070, 4),
                        new Setting("today at 1e-5", Wallets.Model.TODAY, Wallets.RATE_TODAY, 3070, 3),
                        new Setting("large 2014 wallet", Wallets.Model.Y2014, Wallets.RATE_2014, 10_000, 2),
                        new Setting("very large 2014 wallet", Wallets.Model.Y2014, Wallets.RATE_2014, 20_000, 1));

        List<Subject> subjects = new ArrayList<>();
        List<int[]> index = new ArrayList<>(); // {setting, run, filter}
        for (int s = 0; s < settings.size(); s++) {
            Setting st = settings.get(s);
            for (int r = 0; r < st.runs(); r++) {
                Wallets.Client client = Wallets.client(st.model(), lab.seed("exp2/client", s, r));
                for (int f = 0; f < FILTERS; f++) {
                    List<byte[]> hashes = client.growTo(st.firstN() + STEP * f);
                    subjects.add(Subject.of(
                            client.filter(st.rate(), lab.tweak("exp2", s, r, f)), client.elementCount(), hashes));
                    index.add(new int[] {s, r, f});
                }
                lab.log().printf("exp2: built filters of %s, run %d/%d%n", st.name(), r + 1, st.runs());
            }
        }
        List<UniverseScan.Histogram> hs =
                lab.scanAll("exp2", u, subjects.stream().map(Subject::fast).toList(), false, BATCH);

        Csv filters = new Csv(FILTERS_COLUMNS);
        Csv raw = new Csv(
                "setting",
                "run",
                "filters_intersected",
                "true_addresses",
                "false_positives",
                "analytic_fp",
                "ph1",
                "log10_phN");
        Csv summary = new Csv(SUMMARY_COLUMNS);
        Plot plot = new Plot(
                        "P_h(1) after intersecting filters from restarts (" + Lab.count(u) + " other addresses)",
                        "filters intersected",
                        "P_h(1)")
                .yRange(0, 1.05);
        for (int s = 0; s < settings.size(); s++) {
            Setting st = settings.get(s);
            int n0 = st.firstN();
            List<List<Double>> fps = new ArrayList<>();
            List<List<Double>> phs = new ArrayList<>();
            List<List<Double>> phNs = new ArrayList<>();
            List<List<Double>> analytic = new ArrayList<>();
            for (int j = 0; j < FILTERS; j++) {
                fps.add(new ArrayList<>());
                phs.add(new ArrayList<>());
                phNs.add(new ArrayList<>());
                analytic.add(new ArrayList<>());
            }
            for (int r = 0; r < st.runs(); r++) {
                int base = indexOf(index, s, r);
                UniverseScan.Histogram h = hs.get(base / BATCH);
                int local = base % BATCH;
                if (local + FILTERS > BATCH) {
                    throw new IllegalStateException("a run's filters straddle two scan batches");
                }
                double product = 1;
                for (int j = 0; j < FILTERS; j++) {
                    Subject sub = subjects.get(base + j);
                    filters.row(
                            st.name(),
                            r,
                            j + 1,
                            n0 + STEP * j,
                            sub.sizeBytes(),
                            sub.hashFuncs(),
                            sub.elements(),
                            sub.modelRate(),
                            h.hashMatchesAll(local + j));
                    product *= sub.modelRate();
                    int[] prefix = new int[j + 1];
                    for (int q = 0; q <= j; q++) {
                        prefix[q] = local + q;
                    }
                    long fp = h.hashMatchesAll(prefix);
                    double aFp = product * u;
                    raw.row(st.name(), r, j + 1, n0, fp, aFp, Metrics.ph(n0, fp, 1), Metrics.log10PhAll(n0, fp));
                    fps.get(j).add((double) fp);
                    phs.get(j).add(Metrics.ph(n0, fp, 1));
                    phNs.get(j).add(Metrics.log10PhAll(n0, fp));
                    analytic.get(j).add(aFp);
                }
            }
            List<Integer> x = new ArrayList<>();
            List<Double> mPh = new ArrayList<>();
            List<Double> aPh = new ArrayList<>();
            for (int j = 0; j < FILTERS; j++) {
                double aFp = Stats.mean(analytic.get(j));
                summary.row(
                        st.name(),
                        j + 1,
                        st.runs(),
                        Stats.mean(fps.get(j)),
                        aFp,
                        Stats.mean(phs.get(j)),
                        Metrics.ph(n0, aFp, 1),
                        Stats.mean(phNs.get(j)));
                x.add(j + 1);
                mPh.add(Stats.mean(phs.get(j)));
                aPh.add(Metrics.ph(n0, aFp, 1));
            }
            plot.measured(st.name() + " measured", x, mPh, s).model(st.name() + " analytic", x, aPh, s);
        }
        filters.write(dir.resolve("exp2_filters.csv"));
        raw.write(dir.resolve("exp2_raw.csv"));
        summary.write(dir.resolve("exp2_summary.csv"));
        plot.writePng(dir.resolve("exp2_intersections.png"));

        Template.Sections text = Template.load("exp2.txt");
        Report rep = lab.report(dir, text, "exp2");
        rep.heading("Setup");
        List<String> lines = new ArrayList<>();
        lines.add(text.get("universe")
                .render(Map.of(
                        "others", Lab.count(u), "quickNote", lab.quick() ? " (QUICK mode)" : "", "seed", lab.seed())));
        for (Setting st : settings) {
            lines.add(text.get("setting")
                    .render(Map.of(
                            "name", st.name(),
                            "model", st.model().label(),
                            "rate", Csv.format(st.rate()),
                            "n1", st.firstN(),
                            "n2", st.firstN() + STEP,
                            "n3", st.firstN() + 2 * STEP,
                            "n4", st.firstN() + 3 * STEP,
                            "n5", st.firstN() + 4 * STEP,
                            "runs", st.runs())));
        }
        lines.add(text.get("adversary").render());
        rep.bullets(lines);
        rep.heading("Results");
        rep.image("exp2_intersections.png", "P_h(1) against filters intersected");
        rep.table(summary);
        rep.paragraph(text.get("files").render());
        rep.heading("Reading");
        rep.paragraph(reading(text, summary, filters));
        Bip37AdversaryExperiment.run(lab, dir, rep, text);
        rep.write();
    }

    private static int indexOf(List<int[]> index, int s, int r) {
        for (int i = 0; i < index.size(); i++) {
            int[] e = index.get(i);
            if (e[0] == s && e[1] == r && e[2] == 0) {
                return i;
            }
        }
        throw new IllegalStateException("no filters for setting " + s + " run " + r);
    }

    /** A wallet is "exposed" once the mean P_h(1) of its intersected filters reaches this. */
    static final double EXPOSED = 0.99;

    /**
     * The reading of the intersection table {@code summary}, each sentence chosen from it: how many filters expose
     * each setting's wallet, and whether wallets whose filters hit BIP 37's size cap ({@code filters}: one row per
     * filter) were measured and exposed too.
     */
    static String reading(Template.Sections text, Csv summary, Csv filters) {
        Map<String, Integer> needed = new LinkedHashMap<>();
        Map<String, List<String>> last = new LinkedHashMap<>();
        for (List<String> r : summary.rows()) {
            String setting = r.get(0);
            last.put(setting, r);
            if (!needed.containsKey(setting) && Double.parseDouble(r.get(5)) >= EXPOSED) {
                needed.put(setting, Integer.parseInt(r.get(1)));
            }
        }
        List<String> out = new ArrayList<>();
        List<String> unexposed = last.keySet().stream()
                .filter(setting -> !needed.containsKey(setting))
                .toList();
        if (!unexposed.isEmpty()) {
            List<String> r = last.get(unexposed.get(0));
            out.add(text.get("reading.exposed.notAll")
                    .render(Map.of("filters", r.get(1), "setting", r.get(0), "ph1", r.get(5))));
        } else {
            int fewest = needed.values().stream().min(Integer::compare).orElseThrow();
            String slowest = needed.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
            int most = needed.get(slowest);
            out.add(
                    most <= 2
                            ? text.get("reading.exposed.two").render()
                            : text.get("reading.exposed.more")
                                    .render(Map.of("fewest", fewest, "most", most, "slowest", slowest)));
        }
        boolean capped =
                filters.rows().stream().anyMatch(r -> Integer.parseInt(r.get(4)) >= Bip37.MAX_BLOOM_FILTER_SIZE);
        if (capped && unexposed.isEmpty()) {
            out.add(text.get("reading.large").render(Map.of("cap", Lab.count(Bip37.MAX_BLOOM_FILTER_SIZE))));
        }
        out.add(text.get("reading.peers").render());
        return String.join(" ", out);
    }
}
