package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bitcoinj.core.BloomFilter;
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
 * Experiment 1's side-by-side with Gervais et al. (ACSAC 2014): P_h(j) for j = 1..N at N = 5, 10, 15, 20 in the
 * paper's setup (pre-HD bitcoinj filter, 2N elements, capacity 2N + 100, target rate 0.05%, 33M addresses), beside
 * the paper's model (S_F = P_f |U| plugged in as a real number, P_f from bitcoinj's integer sizing), which reproduces
 * the paper's printed values; and the paper's countermeasures measured on real bitcoinj filters.
 *
 * <p>Per filter, the expected P_h(j) follows from its measured bit density rho and k: a random non-member matches
 * with probability rho^k, so the false positives among U addresses are Poisson(U rho^k) and
 * E[P_h(j)] = sum_F Poisson(F) prod_{i<j} (N - i)/(N + F - i): ours, higher than the paper's plug-in by Jensen's
 * inequality (P_h is convex in F). A subset of filters is also scanned against the
 * whole universe, and its measured P_h(j) is reported beside. Stateless.
 */
final class PaperComparison {
    static final int[] PAPER_NS = {5, 10, 15, 20};
    static final int[] COUNTER_NS = {20, 100};

    /** The rows of exp1_countermeasures.csv per N, in this order; the indices below name them. */
    static final String[] COUNTERMEASURES = {
        "none: pubkey + hash, one filter",
        "restart, new tweak: 2 filters intersected",
        "restart, persistent tweak (+5 keys): 2 filters intersected",
        "pubkey not inserted",
        "noise: +N random elements",
        "noise: +4N random elements"
    };

    private static final int NONE = 0;
    private static final int NEW_TWEAK = 1;
    private static final int PERSISTENT_TWEAK = 2;
    private static final int NO_PUBKEY = 3;
    private static final int[] NOISE = {4, 5};

    private PaperComparison() {}

    /**
     * The paper's P_f for {@code elements} elements in the filter bitcoinj builds for {@code capacity} at target rate
     * {@code pt}: bitcoinj's own integer sizing (whole bytes, k truncated to an integer, both read from the filter it
     * serializes) in the paper's formula P_f = (1 - e^{-k m / bits})^k.
     */
    static double paperFalsePositiveRate(long elements, int capacity, double pt) {
        org.blockfilter.filters.bloom.Bip37Filter f =
                org.blockfilter.filters.bloom.Bip37Filter.fromBitcoinj(new BloomFilter(capacity, pt, 0));
        return bloomRate(8.0 * f.sizeBytes(), f.hashFuncs(), elements);
    }

    /**
     * P_f with the continuous sizing (bits = -C ln pt / (ln 2)^2, k = (bits / C) ln 2, neither rounded): not what
     * bitcoinj builds, kept to show what its rounding does.
     */
    static double continuousFalsePositiveRate(long elements, int capacity, double pt) {
        double bits = -capacity * Math.log(pt) / (Math.log(2) * Math.log(2));
        return bloomRate(bits, bits / capacity * Math.log(2), elements);
    }

    private static double bloomRate(double bits, double k, long elements) {
        return Math.pow(1 - Math.exp(-k * elements / bits), k);
    }

    /** The capacity bitcoinj's pre-HD wallet asks for with N keys: 2N elements + FilterMerger's headroom. */
    static int capacity(int n) {
        return 2 * n + Wallets.FILTER_MERGER_HEADROOM;
    }

    /** The paper's S_F = P_f |U| for a wallet of N keys (2N elements) at the 2014 rate, bitcoinj's sizing. */
    static double paperFalsePositives(int n, long universe) {
        return paperFalsePositiveRate(2L * n, capacity(n), Wallets.RATE_2014) * universe;
    }

    /** The paper's model: P_h(j) = prod_{i<j} (N - i)/(N + S_F - i), S_F plugged in as a real number. */
    static double paperModelPh(int n, long universe, int j) {
        return Metrics.ph(n, paperFalsePositives(n, universe), j);
    }

    /** E[P_h(j)] when the false positives are Poisson(lambda). */
    static double expectedPh(int n, double lambda, int j) {
        if (lambda <= 0) {
            return Metrics.ph(n, 0, j);
        }
        double sum = 0;
        double logP = -lambda; // log Poisson pmf at F = 0
        int max = (int) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 30);
        for (int f = 0; f <= max; f++) {
            if (f > 0) {
                logP += Math.log(lambda) - Math.log(f);
            }
            sum += Math.exp(logP) * Metrics.ph(n, f, j);
        }
        return sum;
    }

    /** A pre-HD client's filter with options: the pubkeys left out, and random noise elements added. */
    static BloomFilter filter(
            Wallets.Client c,
            List<byte[]> hashes,
            int capacity,
            double rate,
            int tweak,
            boolean pubKeys,
            int noise,
            long noiseSeed) {
        BloomFilter f = pubKeys ? c.filter(capacity, rate, tweak) : new BloomFilter(capacity, rate, tweak);
        if (!pubKeys) {
            hashes.forEach(f::insert);
        }
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(noiseSeed);
        for (int i = 0; i < noise; i++) {
            byte[] x = new byte[20];
            rnd.nextBytes(x);
            f.insert(x);
        }
        return f;
    }

    /** Part A's filters: every client's, and the prefix of them that is scanned. */
    record Prepared(List<Subject> subjects, List<int[]> cellOf, List<FastBloom> toScan) {}

    /** Builds part A's filters; the caller scans {@code toScan} (with its own filters, to share the passes). */
    static Prepared prepare(Lab lab) {
        int clients = lab.quick() ? 20 : 200;
        int scanned = lab.quick() ? 4 : 8;
        List<Subject> subjects = new ArrayList<>();
        List<int[]> cellOf = new ArrayList<>(); // {n, client}
        for (int c = 0; c < clients; c++) {
            Wallets.Client client = Wallets.client(Wallets.Model.Y2014, lab.seed("paper/client", c));
            for (int n : PAPER_NS) {
                List<byte[]> hashes = client.growTo(n);
                subjects.add(Subject.of(
                        client.filter(Wallets.RATE_2014, lab.tweak("paper", c, n)), client.elementCount(), hashes));
                cellOf.add(new int[] {n, c});
            }
        }
        List<FastBloom> toScan = new ArrayList<>();
        for (int i = 0; i < scanned * PAPER_NS.length; i++) {
            toScan.add(subjects.get(i).fast());
        }
        return new Prepared(subjects, cellOf, toScan);
    }

    /** The columns of exp1_paper_ph.csv. */
    static final String[] PH_COLUMNS = {
        "N",
        "j",
        "paper_printed_ph",
        "paper_model_ph",
        "ours_expected_ph",
        "ours_lo",
        "ours_hi",
        "clients",
        "ours_scanned_ph",
        "scanned_lo",
        "scanned_hi",
        "scanned_clients",
        "paper_model_false_positives",
        "ours_mean_false_positives",
        "ours_plugin_ph"
    };

    /** The columns of exp1_countermeasures.csv. */
    static final String[] COUNTER_COLUMNS = {
        "N",
        "countermeasure",
        "clients",
        "filter_bytes",
        "elements",
        "mean_fp_hash_test",
        "fp_lo",
        "fp_hi",
        "ph1",
        "ph1_lo",
        "ph1_hi",
        "mean_fp_if_pubkey_known"
    };

    /**
     * Runs the comparison, writes its CSVs and plot into {@code dir}, and adds its sections to {@code rep}, their prose
     * from the {@code paper.*} sections of experiment 1's template {@code text}.
     * {@code fp.applyAsLong(i)} is the scanned false-positive count of {@code prepared.toScan().get(i)}.
     */
    static void run(
            Lab lab,
            Path dir,
            Report rep,
            Template.Sections text,
            Prepared prepared,
            java.util.function.IntToLongFunction fp) {
        long u = lab.universe();
        List<Subject> subjects = prepared.subjects();
        List<int[]> cellOf = prepared.cellOf();
        List<FastBloom> toScan = prepared.toScan();
        int clients = subjects.size() / PAPER_NS.length;
        int scanned = toScan.size() / PAPER_NS.length;
        double rate = Wallets.RATE_2014;
        Csv ph = new Csv(PH_COLUMNS);
        Plot plot = new Plot(
                        "P_h(j), pre-HD bitcoinj filter at 0.05%, " + Lab.count(u)
                                + " addresses: ours, E[P_h] over a Poisson count (markers, 95% CI), vs the paper's"
                                + " model, S_F plugged in, bitcoinj's sizing (dashed)",
                        "j (addresses guessed)",
                        "P_h(j)",
                        760)
                .yRange(0, 1.05)
                .legendBelow();
        int g = 0;
        for (int n : PAPER_NS) {
            List<Integer> js = new ArrayList<>();
            List<Double> mean = new ArrayList<>();
            List<Double> lo = new ArrayList<>();
            List<Double> hi = new ArrayList<>();
            List<Double> paper = new ArrayList<>();
            double sf = paperFalsePositives(n, u);
            List<Double> lambdas = new ArrayList<>();
            for (int i = 0; i < subjects.size(); i++) {
                if (cellOf.get(i)[0] == n) {
                    lambdas.add(subjects.get(i).densityRate() * u);
                }
            }
            double meanF = Stats.mean(lambdas);
            for (int j = 1; j <= n; j++) {
                List<Double> exp = new ArrayList<>();
                List<Double> scan = new ArrayList<>();
                for (int i = 0; i < subjects.size(); i++) {
                    if (cellOf.get(i)[0] != n) {
                        continue;
                    }
                    Subject s = subjects.get(i);
                    exp.add(expectedPh(n, s.densityRate() * u, j));
                    if (i < toScan.size()) {
                        scan.add(Metrics.ph(n, fp.applyAsLong(i), j));
                    }
                }
                double[] ci = Stats.ci(exp, lab.seed("paper/ci", n, j));
                double[] sci = Stats.ci(scan, lab.seed("paper/sci", n, j));
                double paperPh = Metrics.ph(n, sf, j);
                ph.row(
                        n,
                        j,
                        PaperPrinted.printed(n, j),
                        Stats.sig(paperPh, 3),
                        Stats.sig(Stats.mean(exp), 3),
                        Stats.sig(ci[0], 3),
                        Stats.sig(ci[1], 3),
                        exp.size(),
                        Stats.sig(Stats.mean(scan), 3),
                        Stats.sig(sci[0], 3),
                        Stats.sig(sci[1], 3),
                        scan.size(),
                        Stats.sig(sf, 3),
                        Stats.sig(meanF, 3),
                        Stats.sig(Metrics.ph(n, meanF, j), 3));
                js.add(j);
                mean.add(Stats.mean(exp));
                lo.add(ci[0]);
                hi.add(ci[1]);
                paper.add(paperPh);
            }
            plot.measuredWithCi("N = " + n + ", ours (" + clients + " filters)", js, mean, lo, hi, g, 0);
            plot.model("N = " + n + ", the paper's model (S_F plugged in, bitcoinj's sizing)", js, paper, g);
            if (!PaperPrinted.printed(n, n).isEmpty()) {
                plot.scatter(
                        "N = " + n + ", the paper's printed P_h(" + n + ") (Karame and Androulaki's restatement)",
                        List.of(n),
                        List.of(Double.parseDouble(PaperPrinted.printed(n, n))),
                        g);
            }
            g++;
        }
        ph.write(dir.resolve("exp1_paper_ph.csv"));
        plot.writePng(dir.resolve("exp1_paper_ph.png"));

        // Part B: the paper's countermeasures.
        Csv cm = new Csv(COUNTER_COLUMNS);
        int cmClients = lab.quick() ? 10 : 100;
        for (int n : COUNTER_NS) {
            String[] names = COUNTERMEASURES;
            List<List<Double>> fps = new ArrayList<>();
            List<List<Double>> fpBoth = new ArrayList<>();
            List<List<Double>> ph1 = new ArrayList<>();
            int[] bytes = new int[names.length];
            int[] elements = new int[names.length];
            for (int v = 0; v < names.length; v++) {
                fps.add(new ArrayList<>());
                fpBoth.add(new ArrayList<>());
                ph1.add(new ArrayList<>());
            }
            for (int c = 0; c < cmClients; c++) {
                Wallets.Client client = Wallets.client(Wallets.Model.Y2014, lab.seed("paper/cm", n, c));
                List<byte[]> hashes = client.growTo(n);
                int capacity = client.elementCount() + Wallets.FILTER_MERGER_HEADROOM;
                int t1 = lab.tweak("paper/cm1", n, c);
                int t2 = lab.tweak("paper/cm2", n, c);
                Subject base = Subject.of(client.filter(rate, t1), client.elementCount(), hashes);
                Subject fresh = Subject.of(client.filter(rate, t2), client.elementCount(), hashes);
                double r0 = base.densityRate();
                double[] rates = new double[names.length];
                double[] both = new double[names.length];
                rates[0] = r0;
                both[0] = r0 * r0;
                // independent tweaks: a non-member matches both filters with probability r1 x r2
                rates[1] = r0 * fresh.densityRate();
                both[1] = rates[1] * rates[1];
                // persistent tweak, same size, 5 more keys: the second filter's bits include the first's
                List<byte[]> more = client.growTo(n + 5);
                Subject again = Subject.of(client.filter(capacity, rate, t1), client.elementCount(), more);
                if (!FastBloom.superset(again.fast(), base.fast())) {
                    throw new IllegalStateException("persistent tweak: second filter lost bits of the first");
                }
                rates[2] = r0;
                both[2] = r0 * r0;
                Subject noPub = Subject.of(filter(client, hashes, capacity, rate, t1, false, 0, 0), n, hashes);
                rates[3] = noPub.densityRate();
                both[3] = noPub.densityRate(); // no pubkey in the filter: nothing more to require
                for (int v = 4; v <= 5; v++) {
                    int noise = v == 4 ? n : 4 * n;
                    List<byte[]> oldHashes = hashes.subList(0, n);
                    Wallets.Client fresh2 = Wallets.client(Wallets.Model.Y2014, lab.seed("paper/cm", n, c));
                    fresh2.growTo(n);
                    BloomFilter f = filter(
                            fresh2, oldHashes, capacity, rate, t1, true, noise, lab.seed("paper/noise", n, c, v));
                    // noise is inserted after bitcoinj built the filter for 2N + 100: the wallet sends it as is
                    Subject s = Subject.of(f, 2 * n + noise, oldHashes);
                    rates[v] = s.densityRate();
                    both[v] = Math.pow(s.densityRate(), 2);
                    bytes[v] = s.sizeBytes();
                    elements[v] = 2 * n + noise;
                }
                bytes[0] = bytes[1] = bytes[2] = base.sizeBytes();
                elements[0] = elements[1] = 2 * n;
                elements[2] = 2 * (n + 5);
                bytes[3] = noPub.sizeBytes();
                elements[3] = n;
                for (int v = 0; v < names.length; v++) {
                    double lambda = rates[v] * u;
                    fps.get(v).add(lambda);
                    fpBoth.get(v).add(both[v] * u);
                    ph1.get(v).add(expectedPh(n, lambda, 1));
                }
            }
            for (int v = 0; v < names.length; v++) {
                double[] fci = Stats.ci(fps.get(v), lab.seed("paper/cmfp", n, v));
                double[] pci = Stats.ci(ph1.get(v), lab.seed("paper/cmph", n, v));
                cm.row(
                        n,
                        names[v],
                        cmClients,
                        bytes[v],
                        elements[v],
                        Stats.sig(Stats.mean(fps.get(v)), 3),
                        Stats.sig(fci[0], 3),
                        Stats.sig(fci[1], 3),
                        Stats.sig(Stats.mean(ph1.get(v)), 3),
                        Stats.sig(pci[0], 3),
                        Stats.sig(pci[1], 3),
                        Stats.sig(Stats.mean(fpBoth.get(v)), 3));
            }
        }
        cm.write(dir.resolve("exp1_countermeasures.csv"));

        rep.heading(text.get("paper.heading").render());
        rep.paragraph(
                text.get("paper.setup").render(Map.of("others", Lab.count(u), "clients", clients, "scanned", scanned)));
        rep.image("exp1_paper_ph.png", "P_h(j): ours vs the paper's model");
        rep.table(ph);
        rep.paragraph(PaperPrinted.paperReading(text, ph, u));
        Csv printedCsv = PaperPrinted.printedTable(text, u, ph);
        printedCsv.write(dir.resolve("exp1_paper_printed.csv"));
        rep.heading(text.get("paper.printed.heading").render());
        rep.paragraph(text.get("paper.printed").render());
        rep.bullets(text.get("paper.printed.quotes").lines(Map.of()));
        rep.table(printedCsv);
        rep.heading(text.get("paper.counter.heading").render());
        rep.paragraph(text.get("paper.counter").render(Map.of("clients", cmClients)));
        rep.table(cm);
        rep.paragraph(counterReading(text, cm));
    }

    /**
     * The reading of the countermeasure table {@code cm} (rows per N in the order of {@link #COUNTERMEASURES}): one
     * sentence per row, then what the rows show, each clause chosen from the numbers among the
     * {@code paper.counter.*} sections of {@code text}.
     */
    static String counterReading(Template.Sections text, Csv cm) {
        List<String> out = new ArrayList<>();
        for (List<String> r : cm.rows()) {
            out.add(text.get("paper.counter.row")
                    .render(Map.of(
                            "n", r.get(0),
                            "countermeasure", r.get(1),
                            "fp", r.get(5),
                            "ph1", r.get(8),
                            "lo", r.get(9),
                            "hi", r.get(10))));
        }
        List<List<List<String>>> byN = new ArrayList<>();
        for (int i = 0; i < cm.rows().size(); i += COUNTERMEASURES.length) {
            byN.add(cm.rows().subList(i, i + COUNTERMEASURES.length));
        }
        out.add(tweakClause(text, byN));
        out.add(pubKeyClause(text, byN));
        double spent = 0;
        String spentText = "";
        for (List<List<String>> g : byN) {
            double x = Double.parseDouble(g.get(NONE).get(11));
            if (x >= spent) {
                spent = x;
                spentText = g.get(NONE).get(11);
            }
        }
        out.add(
                spent < 1
                        ? text.get("paper.counter.spent.almostNone").render()
                        : text.get("paper.counter.spent.some").render(Map.of("fp", spentText)));
        out.add(noiseClause(text, byN));
        return String.join(" ", out);
    }

    private static double fp(List<String> row) {
        return Double.parseDouble(row.get(5));
    }

    /** Whether a persistent tweak keeps the false positives and a new one shrinks them, at every N. */
    private static String tweakClause(Template.Sections text, List<List<List<String>>> byN) {
        for (List<List<String>> g : byN) {
            double single = fp(g.get(NONE));
            if (fp(g.get(PERSISTENT_TWEAK)) < single || fp(g.get(NEW_TWEAK)) >= single) {
                return text.get("paper.counter.tweak.shrinks")
                        .render(Map.of(
                                "n", g.get(NONE).get(0),
                                "single", g.get(NONE).get(5),
                                "persistent", g.get(PERSISTENT_TWEAK).get(5),
                                "fresh", g.get(NEW_TWEAK).get(5)));
            }
        }
        return text.get("paper.counter.tweak.keeps").render();
    }

    /** What leaving the public key out does to the elements and to one filter's false positives. */
    private static String pubKeyClause(Template.Sections text, List<List<List<String>>> byN) {
        String elements = text.get("paper.counter.pubKey.halves").render();
        for (List<List<String>> g : byN) {
            if (2 * Integer.parseInt(g.get(NO_PUBKEY).get(4))
                    != Integer.parseInt(g.get(NONE).get(4))) {
                elements = text.get("paper.counter.pubKey.elements")
                        .render(Map.of(
                                "n", g.get(NONE).get(0),
                                "without", g.get(NO_PUBKEY).get(4),
                                "with", g.get(NONE).get(4)));
                break;
            }
        }
        for (List<List<String>> g : byN) {
            if (fp(g.get(NO_PUBKEY)) >= fp(g.get(NONE))) {
                return text.get("paper.counter.pubKey.notFewer")
                        .render(Map.of(
                                "elements", elements,
                                "n", g.get(NONE).get(0),
                                "without", g.get(NO_PUBKEY).get(5),
                                "with", g.get(NONE).get(5)));
            }
        }
        return text.get("paper.counter.pubKey.fewer").render(Map.of("elements", elements));
    }

    /** Whether noise raises the false positives at every N, and whether it costs filter bytes. */
    private static String noiseClause(Template.Sections text, List<List<List<String>>> byN) {
        Map<String, Object> grown = null;
        for (List<List<String>> g : byN) {
            List<String> none = g.get(NONE);
            for (int v : NOISE) {
                List<String> r = g.get(v);
                if (fp(r) <= fp(none)) {
                    return text.get("paper.counter.noise.notAlways")
                            .render(Map.of(
                                    "n",
                                    r.get(0),
                                    "countermeasure",
                                    r.get(1),
                                    "noise",
                                    r.get(5),
                                    "single",
                                    none.get(5)));
                }
                if (grown == null && !r.get(3).equals(none.get(3))) {
                    grown = Map.of("n", r.get(0), "countermeasure", r.get(1), "bytes", r.get(3), "single", none.get(3));
                }
            }
        }
        return grown == null
                ? text.get("paper.counter.noise.raises").render()
                : text.get("paper.counter.noise.costs").render(grown);
    }
}
