package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;

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

    /**
     * Runs the comparison, writes its CSVs and plot into {@code dir}, and adds its sections to {@code rep}.
     * {@code fp.applyAsLong(i)} is the scanned false-positive count of {@code prepared.toScan().get(i)}.
     */
    static void run(Lab lab, Path dir, Report rep, Prepared prepared, java.util.function.IntToLongFunction fp) {
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
        Csv cm = new Csv(
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
                "mean_fp_if_pubkey_known");
        int cmClients = lab.quick() ? 10 : 100;
        for (int n : COUNTER_NS) {
            String[] names = {
                "none: pubkey + hash, one filter",
                "restart, new tweak: 2 filters intersected",
                "restart, persistent tweak (+5 keys): 2 filters intersected",
                "pubkey not inserted",
                "noise: +N random elements",
                "noise: +4N random elements"
            };
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

        rep.heading("The paper side by side");
        rep.paragraph(String.format(
                Locale.ROOT,
                "Setup as the paper's: pre-HD bitcoinj filter of N imported keys (pubkey and hash: 2N elements), capacity 2N + 100, target rate 0.05%%, %s other addresses; N = 5, 10, 15, 20; P_h(j) for j = 1..N. Ours: %d real bitcoinj filters per N (a fresh tweak each), each filter's expected P_h(j) from its measured bit density (false positives Poisson(U rho^k)), mean and 95%% bootstrap interval over filters; the first %d filters per N were also scanned against all %s addresses (columns `ours_scanned_*`). "
                        + "The paper's numbers: Gervais et al. plot P_h(j) against j for N = 5, 10, 15, 20 in their single-filter analysis (Section 4 of the ACSAC 2014 paper, 'leakage under a single Bloom filter'). "
                        + PaperPrinted.SEARCHED
                        + " The `paper_printed_ph` column holds the one printed value found (N = 10, j = 10: 0.99); every other cell is empty, not zero. "
                        + "The `paper_model_ph` column is the paper's model: P_h(j) = prod_{i<j} (N - i)/(N + S_F - i) with S_F = P_f x |U| plugged in as a real number (`paper_model_false_positives`), and P_f = (1 - e^{-2kN/m})^k for the filter bitcoinj builds for capacity M = 2N + 100 at 0.05%% (m bits in whole bytes and k truncated to an integer, read from bitcoinj's own filter: the sizing every filter of this experiment has). "
                        + "`ours_expected_ph` is ours: a real filter has an integer number F of false positives, Poisson(U rho^k) for its measured bit density rho, and ours is E[P_h(j)] = sum_F Poisson(F) prod_{i<j} (N - i)/(N + F - i); `ours_mean_false_positives` is the mean of our filters' expected counts and `ours_plugin_ph` that mean plugged into the paper's formula, which separates the two differences (sizing and expectation). "
                        + "The printed statements used are in Karame and Androulaki's book (Bitcoin and Blockchain Security, ch. 6, restating the paper): 'when N = 10, P_h = 0.99 which corresponds to the probability of correctly guessing all the true positives when the SPV client has 10 addresses', and that guessing all addresses of a filter with fewer than 15 addresses succeeds with probability almost 0.80, falling as N grows past 15.",
                Lab.count(u),
                clients,
                scanned,
                Lab.count(u)));
        rep.image("exp1_paper_ph.png", "P_h(j): ours vs the paper's model");
        rep.table(ph);
        rep.paragraph(PaperPrinted.paperReading(ph, u));
        Csv printedCsv = PaperPrinted.printedTable(u, ph);
        printedCsv.write(dir.resolve("exp1_paper_printed.csv"));
        rep.heading("Every number of the paper found printed, beside the recomputed model and the lab");
        rep.paragraph(
                "Each row is a number read in a source that restates the paper (the paper itself was not reachable; see the search list above), the paper's model recomputed from its stated formulas where it applies, and the lab's figure from the tables above; the last column says why they differ. The quoted sentences, as printed:");
        rep.bullets(PaperPrinted.PRINTED_QUOTES);
        rep.table(printedCsv);
        rep.heading("The paper's countermeasures, measured");
        rep.paragraph(
                "Real pre-HD bitcoinj filters at 0.05%, " + cmClients
                        + " clients per N; false positives are each filter's expected count from its bit density (mean and 95% bootstrap interval over clients). `mean_fp_if_pubkey_known`: false positives left when the adversary counts an address only if both its public key and its hash match (addresses whose public key is on the chain). Persistent tweak: the restarted wallet (5 keys more, the same size and tweak) sends a filter whose set bits include the first filter's (checked for every client), so intersecting the two leaves the first filter's false positives; a new tweak per restart gives independent false positives and the intersection keeps about P_f^2 of the universe.");
        rep.table(cm);
        rep.paragraph(counterReading(cm));
    }

    private static String counterReading(Csv cm) {
        StringBuilder sb = new StringBuilder();
        for (List<String> r : cm.rows()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "N = %s, %s: %s false positives, P_h(1) = %s [%s, %s]. ",
                    r.get(0),
                    r.get(1),
                    r.get(5),
                    r.get(8),
                    r.get(9),
                    r.get(10)));
        }
        sb.append(
                "A persistent tweak is what keeps restarts from shrinking the false positives; leaving the public key out halves the elements, so a single filter yields fewer false positives, but it removes the pubkey-and-hash test that otherwise leaves almost none for addresses that have spent; noise elements raise the false positives at no bandwidth cost beyond the filter.");
        return sb.toString();
    }
}
