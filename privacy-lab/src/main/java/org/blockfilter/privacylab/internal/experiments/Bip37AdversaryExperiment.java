package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.blockfilter.privacylab.internal.adversaries.Bip37Adversary;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * Experiment 2's BIP 37 adversary sections: the paper's estimate of a filter's element count from its set
 * bits, and the intersection of several filters of one wallet over hundreds of wallets with 95% intervals, with the
 * filters put in order by that estimate as the paper does. Per filter, the false positives among U addresses are
 * Poisson(U x density^k) (experiment 2's scanned runs check this against the whole universe); the filters themselves
 * are real bitcoinj filters. Stateless.
 */
final class Bip37AdversaryExperiment {
    private static final int FILTERS = 5;
    private static final int[] ESTIMATE_NS = {5, 10, 15, 20, 100};
    /** Largest N whose element count a reference wallet tabulates for the adversary. */
    private static final int TABLE_MAX = 120;

    private Bip37AdversaryExperiment() {}

    private record Model(Wallets.Model model, double rate, int wallets) {}

    private record Setting(String name, Wallets.Model model, double rate, int firstN, int step, int wallets) {}

    /** The columns of exp2_element_estimate.csv. */
    static final String[] ESTIMATE_COLUMNS = {
        "model",
        "target_rate",
        "N",
        "wallets",
        "elements",
        "mean_n_hat",
        "n_hat_lo",
        "n_hat_hi",
        "sd_n_hat",
        "mean_N_hat",
        "N_hat_lo",
        "N_hat_hi",
        "mean_consistent_N_values",
        "share_N_exact",
        "share_lo",
        "share_hi",
        "ph1_true",
        "ph1_adversary_estimate",
        "phN_known_N",
        "phN_with_n_hat"
    };

    /** The columns of exp2_intersection_ci.csv. */
    static final String[] INTERSECTION_COLUMNS = {
        "setting",
        "filters_observed",
        "wallets",
        "true_N",
        "expected_fp",
        "fp_lo",
        "fp_hi",
        "ph1",
        "ph1_lo",
        "ph1_hi",
        "phN_scale",
        "phN",
        "phN_lo",
        "phN_hi"
    };

    /** The columns of exp2_paper_kj.csv. */
    static final String[] KJ_COLUMNS = {
        "setting",
        "j",
        "filters_in_K_j",
        "wallets",
        "order_recovered_share",
        "order_lo",
        "order_hi",
        "mean_true_N_in_K_j",
        "mean_adversary_N_hat",
        "expected_fp",
        "ph1",
        "ph1_lo",
        "ph1_hi"
    };

    /** Writes the sections' CSVs and plots into {@code dir} and appends them to {@code rep}. */
    static void run(Lab lab, Path dir, Report rep, Template.Sections text) {
        estimate(lab, dir, rep, text);
        intersections(lab, dir, rep, text);
    }

    /** The adversary's table of element counts for a wallet of each N: the bitcoinj version's own rule. */
    static int[] elementTable(Wallets.Model model, long seed, int max) {
        Wallets.Client ref = Wallets.client(model, seed);
        int[] table = new int[max + 1];
        for (int n = 1; n <= max; n++) {
            ref.growTo(n);
            table[n] = ref.elementCount();
        }
        return table;
    }

    /**
     * The N values whose element count in {@code table} is nearest to {@code elements}: {lo, hi}. An HD wallet's
     * count is flat while its lookahead covers new keys, so a whole range of N can share one count.
     */
    static int[] addressesFromTable(int[] table, double elements) {
        double best = Double.POSITIVE_INFINITY;
        for (int n = 1; n < table.length; n++) {
            best = Math.min(best, Math.abs(table[n] - elements));
        }
        int lo = -1;
        int hi = -1;
        for (int n = 1; n < table.length; n++) {
            if (Math.abs(table[n] - elements) == best) {
                lo = lo < 0 ? n : lo;
                hi = n;
            }
        }
        return new int[] {lo, hi};
    }

    /** The adversary's single guess from a range: its middle, rounded down. */
    static int guess(int[] range) {
        return (range[0] + range[1]) / 2;
    }

    /** A Poisson(lambda) draw: exact (inversion) below 50, else the rounded normal approximation. */
    static long poisson(double lambda, SplittableRandom rnd) {
        if (lambda <= 0) {
            return 0;
        }
        if (lambda >= 50) {
            double z = Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
            return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * z));
        }
        double u = rnd.nextDouble();
        double p = Math.exp(-lambda);
        double cdf = p;
        long k = 0;
        while (u > cdf && k < 10_000) {
            k++;
            p *= lambda / k;
            cdf += p;
        }
        return k;
    }

    private static void estimate(Lab lab, Path dir, Report rep, Template.Sections text) {
        long u = lab.universe();
        List<Model> models = List.of(
                new Model(Wallets.Model.Y2014, Wallets.RATE_2014, lab.quick() ? 10 : 200),
                new Model(Wallets.Model.HD_2014, Wallets.RATE_2014, lab.quick() ? 5 : 100),
                new Model(Wallets.Model.TODAY, Wallets.RATE_TODAY, lab.quick() ? 5 : 100));
        Csv table = new Csv(ESTIMATE_COLUMNS);
        Plot plot = new Plot(
                        "The adversary's address count from the filter's set bits vs the truth (mean, 95% CI)",
                        "N (addresses the wallet has)",
                        "N_hat = count whose element total is nearest -(m/k) ln(1 - X/m)",
                        760)
                .logX()
                .logY()
                .legendBelow();
        List<Double> diag = new ArrayList<>();
        for (int n : ESTIMATE_NS) {
            diag.add((double) n);
        }
        plot.modelBlack("N_hat = N (a perfect estimate)", diag, diag);
        for (int mi = 0; mi < models.size(); mi++) {
            Model m = models.get(mi);
            int[] ref = elementTable(m.model(), lab.seed("exp2/nhat/reference", mi), TABLE_MAX);
            List<List<Double>> nHat = new ArrayList<>();
            List<List<Double>> bigN = new ArrayList<>();
            List<List<Double>> width = new ArrayList<>();
            List<List<Double>> ph1 = new ArrayList<>();
            List<List<Double>> ph1Est = new ArrayList<>();
            List<List<Double>> phN = new ArrayList<>();
            List<List<Double>> phNHat = new ArrayList<>();
            long[] exact = new long[ESTIMATE_NS.length];
            int[] flat = addressesFromTable(ref, ref[ESTIMATE_NS[0]]);
            int[] elements = new int[ESTIMATE_NS.length];
            for (int i = 0; i < ESTIMATE_NS.length; i++) {
                nHat.add(new ArrayList<>());
                bigN.add(new ArrayList<>());
                width.add(new ArrayList<>());
                ph1.add(new ArrayList<>());
                ph1Est.add(new ArrayList<>());
                phN.add(new ArrayList<>());
                phNHat.add(new ArrayList<>());
            }
            for (int w = 0; w < m.wallets(); w++) {
                Wallets.Client client = Wallets.client(m.model(), lab.seed("exp2/nhat/client", mi, w));
                SplittableRandom rnd = new SplittableRandom(lab.seed("exp2/nhat/fp", mi, w));
                for (int i = 0; i < ESTIMATE_NS.length; i++) {
                    int n = ESTIMATE_NS[i];
                    List<byte[]> hashes = client.growTo(n);
                    Subject s = Subject.of(
                            client.filter(m.rate(), lab.tweak("exp2/nhat", mi, w, n)), client.elementCount(), hashes);
                    elements[i] = s.elements();
                    double est = Bip37Adversary.estimateElements(s.fast());
                    int[] range = addressesFromTable(ref, est);
                    int guessN = guess(range);
                    nHat.get(i).add(est);
                    width.get(i).add((double) (range[1] - range[0] + 1));
                    bigN.get(i).add((double) guessN);
                    if (guessN == n) {
                        exact[i]++;
                    }
                    long f = poisson(s.densityRate() * u, rnd);
                    long matches = n + f;
                    ph1.get(i).add(Metrics.ph(n, f, 1));
                    // the adversary's own reading: N_hat of its matches are the wallet's
                    ph1Est.get(i).add(Math.min(1.0, (double) guessN / matches));
                    double known = Metrics.ph(n, f, n);
                    phN.get(i).add(known);
                    // it guesses N_hat matches; all N found only when N_hat = N
                    phNHat.get(i).add(guessN == n ? known : 0.0);
                }
            }
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> lo = new ArrayList<>();
            List<Double> hi = new ArrayList<>();
            for (int i = 0; i < ESTIMATE_NS.length; i++) {
                int n = ESTIMATE_NS[i];
                double[] nci = Stats.ci(nHat.get(i), lab.seed("exp2/nhat/ci", mi, n));
                double[] bci = Stats.ci(bigN.get(i), lab.seed("exp2/nhat/nci", mi, n));
                double[] sci = Stats.wilson(exact[i], m.wallets());
                table.row(
                        m.model().name(),
                        Csv.format(m.rate()),
                        n,
                        m.wallets(),
                        elements[i],
                        Stats.sig(Stats.mean(nHat.get(i)), 4),
                        Stats.sig(nci[0], 4),
                        Stats.sig(nci[1], 4),
                        Stats.sig(Stats.sd(nHat.get(i)), 3),
                        Stats.sig(Stats.mean(bigN.get(i)), 3),
                        Stats.sig(bci[0], 3),
                        Stats.sig(bci[1], 3),
                        Stats.sig(Stats.mean(width.get(i)), 3),
                        Stats.sig((double) exact[i] / m.wallets(), 3),
                        Stats.sig(sci[0] < 1e-12 ? 0.0 : sci[0], 3),
                        Stats.sig(sci[1], 3),
                        Stats.sig(Stats.mean(ph1.get(i)), 3),
                        Stats.sig(Stats.mean(ph1Est.get(i)), 3),
                        Stats.sig(Stats.mean(phN.get(i)), 3),
                        Stats.sig(Stats.mean(phNHat.get(i)), 3));
                x.add((double) n);
                y.add(Stats.mean(bigN.get(i)));
                lo.add(bci[0]);
                hi.add(bci[1]);
            }
            String flatNote = flat[1] > flat[0]
                    ? ": N = " + flat[0] + ".." + flat[1] + " share one element count, the adversary guesses "
                            + guess(flat)
                    : "";
            plot.measuredWithCi(
                    m.model().label() + " at " + Csv.format(m.rate()) + " (" + m.wallets() + " wallets)" + flatNote,
                    x,
                    y,
                    lo,
                    hi,
                    mi + 1,
                    1 + 0.03 * mi);
        }
        table.write(dir.resolve("exp2_element_estimate.csv"));
        plot.writePng(dir.resolve("exp2_element_estimate.png"));

        rep.heading("The adversary's estimate of the inserted elements (the paper's section 6)");
        rep.paragraph(text.get("estimate").render(Map.of("tableMax", TABLE_MAX, "universe", Lab.count(u))));
        rep.image("exp2_element_estimate.png", "N_hat vs N");
        rep.table(table);
        rep.paragraph(estimateReading(text, table));
    }

    private static String estimateReading(Template.Sections text, Csv t) {
        StringBuilder sb = new StringBuilder();
        for (List<String> r : t.rows()) {
            if (r.get(2).equals("20") || r.get(2).equals("100")) {
                Map<String, Object> row = new HashMap<>();
                row.put("model", r.get(0));
                row.put("n", r.get(2));
                row.put("elements", r.get(4));
                row.put("nHat", r.get(5));
                row.put("sdNHat", r.get(8));
                row.put("consistent", r.get(12));
                row.put("bigNHat", r.get(9));
                row.put("bigNHatLo", r.get(10));
                row.put("bigNHatHi", r.get(11));
                row.put("exact", r.get(13));
                row.put("exactLo", r.get(14));
                row.put("exactHi", r.get(15));
                row.put("phNKnown", r.get(18));
                row.put("phNWithNHat", r.get(19));
                sb.append(text.get("estimate.row").render(row)).append(' ');
            }
        }
        sb.append(Bip37Readings.estimateFindings(text, t));
        return sb.toString();
    }

    private static void intersections(Lab lab, Path dir, Report rep, Template.Sections text) {
        long u = lab.universe();
        List<Setting> settings = lab.quick()
                ? List.of(
                        new Setting("2014 growth (quick)", Wallets.Model.Y2014, Wallets.RATE_2014, 300, 50, 6),
                        new Setting("2014 N = 20 restarts", Wallets.Model.Y2014, Wallets.RATE_2014, 20, 0, 20),
                        new Setting("today N = 20 restarts", Wallets.Model.TODAY, Wallets.RATE_TODAY, 20, 0, 6))
                : List.of(
                        new Setting(
                                "paper: 2014 at 0.0005, N = 3070..3270",
                                Wallets.Model.Y2014,
                                Wallets.RATE_2014,
                                3070,
                                50,
                                100),
                        new Setting(
                                "2014 at 0.0005, N = 20, restarts", Wallets.Model.Y2014, Wallets.RATE_2014, 20, 0, 500),
                        new Setting(
                                "today at 1e-5, N = 20, restarts",
                                Wallets.Model.TODAY,
                                Wallets.RATE_TODAY,
                                20,
                                0,
                                200));
        Csv table = new Csv(INTERSECTION_COLUMNS);
        Csv kj = new Csv(KJ_COLUMNS);
        Plot plot = new Plot(
                        "Intersecting one wallet's filters (a new tweak each): mean over wallets, 95% CI (bars mostly narrower than the markers)",
                        "filters observed (intersected)", "P_h", 760)
                .yRange(0, 1.05)
                .xRange(0.5, FILTERS + 0.5)
                .legendBelow();
        for (int si = 0; si < settings.size(); si++) {
            Setting st = settings.get(si);
            boolean smallN = st.firstN() + st.step() * (FILTERS - 1) <= 200;
            List<List<Double>> fp = new ArrayList<>();
            List<List<Double>> ph1 = new ArrayList<>();
            List<List<Double>> phN = new ArrayList<>();
            List<List<Double>> kPh1 = new ArrayList<>();
            List<List<Double>> kTrueN = new ArrayList<>();
            List<List<Double>> kNHat = new ArrayList<>();
            List<List<Double>> kFp = new ArrayList<>();
            for (int j = 0; j < FILTERS; j++) {
                fp.add(new ArrayList<>());
                ph1.add(new ArrayList<>());
                phN.add(new ArrayList<>());
                kPh1.add(new ArrayList<>());
                kTrueN.add(new ArrayList<>());
                kNHat.add(new ArrayList<>());
                kFp.add(new ArrayList<>());
            }
            long ordered = 0;
            int[] ref = st.step() > 0
                    ? elementTable(st.model(), lab.seed("exp2/kj/reference", si), 0)
                    : elementTable(st.model(), lab.seed("exp2/kj/reference", si), TABLE_MAX);
            for (int w = 0; w < st.wallets(); w++) {
                Wallets.Client client = Wallets.client(st.model(), lab.seed("exp2/int/client", si, w));
                List<Subject> subjects = new ArrayList<>();
                int[] trueN = new int[FILTERS];
                for (int f = 0; f < FILTERS; f++) {
                    trueN[f] = st.firstN() + st.step() * f;
                    List<byte[]> hashes = client.growTo(trueN[f]);
                    subjects.add(Subject.of(
                            client.filter(st.rate(), lab.tweak("exp2/int", si, w, f)), client.elementCount(), hashes));
                }
                // prefix intersections in the order sent: B_1 & ... & B_b holds B_1's N addresses
                for (int b = 1; b <= FILTERS; b++) {
                    int[] prefix = new int[b];
                    Arrays.setAll(prefix, q -> q);
                    double lambda = Bip37Adversary.expectedFalsePositives(subjects, prefix, u);
                    fp.get(b - 1).add(lambda);
                    ph1.get(b - 1).add(PaperComparison.expectedPh(trueN[0], lambda, 1));
                    phN.get(b - 1)
                            .add(
                                    smallN
                                            ? PaperComparison.expectedPh(trueN[0], lambda, trueN[0])
                                            : Metrics.log10PhAll(trueN[0], lambda));
                }
                // the paper's K_j: the filters arrive in an unknown order; the adversary sorts them by n_hat
                int[] shuffled = shuffle(FILTERS, new SplittableRandom(lab.seed("exp2/kj/shuffle", si, w)));
                List<FastBloom> received = new ArrayList<>();
                for (int i : shuffled) {
                    received.add(subjects.get(i).fast());
                }
                int[] byEstimate = Bip37Adversary.orderByEstimate(received);
                int[] order = new int[FILTERS];
                for (int i = 0; i < FILTERS; i++) {
                    order[i] = shuffled[byEstimate[i]];
                }
                boolean right = true;
                for (int i = 0; i < FILTERS; i++) {
                    right &= st.step() == 0 || order[i] == i;
                }
                ordered += right ? 1 : 0;
                List<int[]> suffixes = Bip37Adversary.suffixes(order);
                for (int j = 0; j < FILTERS; j++) {
                    int[] k = suffixes.get(j);
                    int real = Integer.MAX_VALUE;
                    for (int i : k) {
                        real = Math.min(real, trueN[i]);
                    }
                    double lambda = Bip37Adversary.expectedFalsePositives(subjects, k, u);
                    double est =
                            Bip37Adversary.estimateElements(subjects.get(k[0]).fast());
                    double nHat = ref.length > 1 ? guess(addressesFromTable(ref, est)) : est / 2;
                    kPh1.get(j).add(PaperComparison.expectedPh(real, lambda, 1));
                    kTrueN.get(j).add((double) real);
                    kNHat.get(j).add(nHat);
                    kFp.get(j).add(lambda);
                }
                if ((w + 1) % 50 == 0 || w + 1 == st.wallets()) {
                    lab.log()
                            .printf(
                                    "exp2: intersection adversary, %s: %d/%d wallets%n",
                                    st.name(), w + 1, st.wallets());
                }
            }
            List<Integer> x = new ArrayList<>();
            List<Double> m1 = new ArrayList<>();
            List<Double> l1 = new ArrayList<>();
            List<Double> h1 = new ArrayList<>();
            List<Double> mN = new ArrayList<>();
            List<Double> lN = new ArrayList<>();
            List<Double> hN = new ArrayList<>();
            for (int j = 0; j < FILTERS; j++) {
                double[] fci = Stats.ci(fp.get(j), lab.seed("exp2/int/fpci", si, j));
                double[] pci = Stats.ci(ph1.get(j), lab.seed("exp2/int/ph1ci", si, j));
                double[] nci = Stats.ci(phN.get(j), lab.seed("exp2/int/phNci", si, j));
                table.row(
                        st.name(),
                        j + 1,
                        st.wallets(),
                        st.firstN(),
                        Stats.sig(Stats.mean(fp.get(j)), 3),
                        Stats.sig(fci[0], 3),
                        Stats.sig(fci[1], 3),
                        Stats.sig(Stats.mean(ph1.get(j)), 3),
                        Stats.sig(pci[0], 3),
                        Stats.sig(pci[1], 3),
                        smallN ? "P_h(N)" : "log10 P_h(N) at expected F",
                        Stats.sig(Stats.mean(phN.get(j)), 3),
                        Stats.sig(nci[0], 3),
                        Stats.sig(nci[1], 3));
                x.add(j + 1);
                m1.add(Stats.mean(ph1.get(j)));
                l1.add(pci[0]);
                h1.add(pci[1]);
                mN.add(Stats.mean(phN.get(j)));
                lN.add(nci[0]);
                hN.add(nci[1]);
                double[] kci = Stats.ci(kPh1.get(j), lab.seed("exp2/kj/ci", si, j));
                double[] oci = Stats.wilson(ordered, st.wallets());
                kj.row(
                        st.name(),
                        j + 1,
                        FILTERS - j,
                        st.wallets(),
                        Stats.sig((double) ordered / st.wallets(), 3),
                        Stats.sig(oci[0], 3),
                        Stats.sig(oci[1], 3),
                        Stats.sig(Stats.mean(kTrueN.get(j)), 5),
                        Stats.sig(Stats.mean(kNHat.get(j)), 5),
                        Stats.sig(Stats.mean(kFp.get(j)), 3),
                        Stats.sig(Stats.mean(kPh1.get(j)), 3),
                        Stats.sig(kci[0], 3),
                        Stats.sig(kci[1], 3));
            }
            double dx = (si - 1) * 0.06;
            plot.measuredWithCi(st.name() + ": P_h(1) (" + st.wallets() + " wallets)", x, m1, l1, h1, si, dx);
            if (smallN) {
                plot.measuredWithCi(
                        st.name() + ": P_h(N), all " + st.firstN() + " addresses", x, mN, lN, hN, si + 3, dx + 0.03);
            }
        }
        table.write(dir.resolve("exp2_intersection_ci.csv"));
        kj.write(dir.resolve("exp2_paper_kj.csv"));
        plot.writePng(dir.resolve("exp2_intersection_ci.png"));

        rep.heading("Intersection over hundreds of wallets, with 95% intervals");
        rep.paragraph(text.get("intersection").render(Map.of("universe", Lab.count(u))));
        rep.image("exp2_intersection_ci.png", "P_h against filters intersected, with 95% intervals");
        rep.table(table);
        String today = settings.get(settings.size() - 1).name();
        rep.paragraph(intersectionReading(text, table, today));
        rep.heading("The paper's K_j: filters ordered by n_hat, then the larger ones intersected");
        rep.paragraph(Bip37Readings.kjReading(
                text,
                kj,
                settings.subList(1, settings.size()).stream().map(Setting::name).toList(),
                today));
        rep.table(kj);
    }

    private static String intersectionReading(Template.Sections text, Csv t, String today) {
        StringBuilder sb = new StringBuilder();
        for (List<String> r : t.rows()) {
            if (r.get(1).equals("1") || r.get(1).equals("2")) {
                Map<String, Object> row = new HashMap<>();
                row.put("setting", r.get(0));
                row.put("filters", r.get(1));
                row.put("fp", r.get(4));
                row.put("ph1", r.get(7));
                row.put("ph1Lo", r.get(8));
                row.put("ph1Hi", r.get(9));
                row.put("phNScale", r.get(10));
                row.put("phN", r.get(11));
                row.put("phNLo", r.get(12));
                row.put("phNHi", r.get(13));
                sb.append(text.get("intersection.row").render(row)).append(' ');
            }
        }
        sb.append(Bip37Readings.todayReading(text, t, today));
        return sb.toString();
    }

    private static int[] shuffle(int n, SplittableRandom rnd) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }
}
