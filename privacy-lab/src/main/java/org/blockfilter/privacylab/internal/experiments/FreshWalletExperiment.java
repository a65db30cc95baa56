package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Experiment 4: the filter a freshly created bitcoinj wallet actually sends, 0.12-era and today: keys, size, hash
 * functions, effective false-positive rate, and the false positives it yields against 33M and 60M addresses.
 */
public final class FreshWalletExperiment {
    /** Where scans that found no false positive are marked on the log axis. */
    static final double ZERO_AT = 1e-3;

    private FreshWalletExperiment() {}

    /** The columns of exp4_summary.csv, whose false-positive columns name the universes {@code small} and {@code large}. */
    static String[] summaryColumns(long small, long large) {
        return new String[] {
            "model",
            "used_addresses",
            "keys_in_filter",
            "elements",
            "capacity",
            "filter_bytes",
            "hash_funcs",
            "target_rate",
            "model_rate",
            "density_rate",
            "measured_rate",
            "expected_fp_" + small,
            "measured_fp_" + small,
            "expected_fp_" + large,
            "measured_fp_" + large,
            "expected_fp_pubkey_and_hash_" + small
        };
    }

    public static void run(Lab lab) {
        Path dir = lab.dir("exp4-fresh-wallet");
        int tweaks = lab.quick() ? 2 : 5;
        long small = lab.universe();
        long large = lab.largeUniverse();
        Wallets.Model[] models = Wallets.Model.values();
        double[] rates = {Wallets.RATE_2014, Wallets.RATE_2014, Wallets.RATE_TODAY};
        // a pre-HD wallet was created with one key; an HD wallet issues none until asked
        int[] used = {1, 0, 0};

        List<Subject> subjects = new ArrayList<>();
        for (int m = 0; m < models.length; m++) {
            Wallets.Client client = Wallets.client(models[m], lab.seed("exp4/client", m));
            List<byte[]> hashes = client.growTo(used[m]);
            for (int t = 0; t < tweaks; t++) {
                subjects.add(
                        Subject.of(client.filter(rates[m], lab.tweak("exp4", m, t)), client.elementCount(), hashes));
            }
        }
        List<FastBloom> fast = subjects.stream().map(Subject::fast).toList();
        UniverseScan.Histogram hSmall =
                lab.scanAll("exp4 " + Lab.count(small), small, fast, false).get(0);
        UniverseScan.Histogram hLarge =
                lab.scanAll("exp4 " + Lab.count(large), large, fast, false).get(0);

        Csv raw = new Csv(
                "model",
                "tweak_index",
                "keys_in_filter",
                "elements",
                "filter_bytes",
                "hash_funcs",
                "bit_density",
                "fp_" + small,
                "fp_" + large);
        Csv summary = new Csv(summaryColumns(small, large));
        for (int m = 0; m < models.length; m++) {
            List<Double> fpS = new ArrayList<>();
            List<Double> fpL = new ArrayList<>();
            List<Double> dRate = new ArrayList<>();
            List<Double> mRate = new ArrayList<>();
            Subject first = subjects.get(m * tweaks);
            for (int t = 0; t < tweaks; t++) {
                int i = m * tweaks + t;
                Subject s = subjects.get(i);
                long a = hSmall.hashMatchesAll(i);
                long b = hLarge.hashMatchesAll(i);
                raw.row(
                        models[m].name(),
                        t,
                        s.elements() / 2,
                        s.elements(),
                        s.sizeBytes(),
                        s.hashFuncs(),
                        s.density(),
                        a,
                        b);
                fpS.add((double) a);
                fpL.add((double) b);
                dRate.add(s.densityRate());
                mRate.add(s.modelRate());
            }
            double rate = Stats.mean(mRate);
            summary.row(
                    models[m].name(),
                    used[m],
                    first.elements() / 2,
                    first.elements(),
                    first.elements() + Wallets.FILTER_MERGER_HEADROOM,
                    first.sizeBytes(),
                    first.hashFuncs(),
                    rates[m],
                    Stats.sig(rate, 3),
                    Stats.sig(Stats.mean(dRate), 3),
                    Stats.sig(Stats.mean(fpL) / large, 3),
                    Stats.sig(rate * small, 3),
                    Stats.sig(Stats.mean(fpS), 3),
                    Stats.sig(rate * large, 3),
                    Stats.sig(Stats.mean(fpL), 3),
                    Stats.sig(rate * rate * small, 2));
        }
        raw.write(dir.resolve("exp4_raw.csv"));
        summary.write(dir.resolve("exp4_summary.csv"));

        Plot plot = new Plot(
                        "False positives a fresh wallet's filter yields",
                        "addresses tested (universe)",
                        "false positives: measured (markers), expected (dashed)",
                        760)
                .logY()
                .legendBelow();
        for (int m = 0; m < models.length; m++) {
            List<String> row = summary.rows().get(m);
            List<Long> x = List.of(small, large);
            double[] measured = {Double.parseDouble(row.get(12)), Double.parseDouble(row.get(14))};
            List<Long> mx = new ArrayList<>();
            List<Double> my = new ArrayList<>();
            List<Long> zx = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                if (measured[i] > 0) {
                    mx.add(x.get(i));
                    my.add(measured[i]);
                } else {
                    zx.add(x.get(i));
                }
            }
            if (!mx.isEmpty()) {
                plot.measured(models[m].label() + " measured", mx, my, m);
            }
            plot.zeros(models[m].label() + ": 0 found in every scan (drawn at " + ZERO_AT + ")", zx, ZERO_AT, m);
            plot.model(
                    models[m].label() + " expected",
                    x,
                    List.of(Double.parseDouble(row.get(11)), Double.parseDouble(row.get(13))),
                    m);
        }
        plot.writePng(dir.resolve("exp4_fp.png"));

        Template.Sections text = Template.load("exp4.txt");
        Report rep = lab.report(dir, text, "exp4");
        rep.heading("Setup");
        rep.bullets(text.get("setup")
                .lines(Map.of(
                        "y2014Label", Wallets.Model.Y2014.label(),
                        "hdLabel", Wallets.Model.HD_2014.label(),
                        "todayLabel", Wallets.Model.TODAY.label(),
                        "tweaks", tweaks,
                        "small", Lab.count(small),
                        "large", Lab.count(large),
                        "quickNote", lab.quick() ? " (QUICK mode)" : "",
                        "seed", lab.seed())));
        rep.heading("Results");
        rep.table(summary);
        rep.image("exp4_fp.png", "false positives vs universe size");
        rep.heading("Reading");
        rep.paragraph(reading(text, summary, small, large));
        rep.write();
    }

    /** Section {@code magnitude.*} naming the order of magnitude of the count {@code x}. */
    static String magnitude(Template.Sections text, double x) {
        String[] names = {"ones", "tens", "hundreds", "thousands"};
        int decade = x < 1 ? -1 : (int) Math.floor(Math.log10(x));
        String name = decade < 0 ? "belowOne" : decade < names.length ? names[decade] : "more";
        return text.get("magnitude." + name).render();
    }

    /**
     * The reading from the summary's rows (Y2014, HD_2014, TODAY), the universes {@code small} and {@code large}
     * addresses; each reading chosen from the numbers.
     */
    static String reading(Template.Sections text, Csv summary, long small, long large) {
        List<String> y2014 = summary.rows().get(0);
        List<String> hd = summary.rows().get(1);
        List<String> today = summary.rows().get(2);
        double hdBoth = Double.parseDouble(hd.get(15));
        double todayBoth = Double.parseDouble(today.get(15));
        Map<String, Object> reading = new HashMap<>();
        reading.put("small", Lab.count(small));
        reading.put("large", Lab.count(large));
        reading.put("y2014Bytes", y2014.get(5));
        reading.put("y2014Funcs", y2014.get(6));
        reading.put("y2014Elements", y2014.get(3));
        reading.put("y2014Capacity", y2014.get(4));
        reading.put("y2014Rate", y2014.get(8));
        reading.put("y2014Fp", y2014.get(12));
        reading.put(
                "y2014Exposed",
                text.get(Double.parseDouble(y2014.get(12)) < 1 ? "reading.y2014.exposed" : "reading.y2014.hidden")
                        .render());
        reading.put("hdKeys", hd.get(2));
        reading.put("hdElements", hd.get(3));
        reading.put("hdBytes", hd.get(5));
        reading.put("hdFuncs", hd.get(6));
        reading.put("hdRate", hd.get(8));
        reading.put("hdFp", hd.get(12));
        reading.put("hdMagnitude", magnitude(text, Double.parseDouble(hd.get(12))));
        reading.put("todayKeys", today.get(2));
        reading.put("todayElements", today.get(3));
        reading.put("todayBytes", today.get(5));
        reading.put("todayRate", today.get(8));
        reading.put("todayFp", today.get(12));
        reading.put("todayFpLarge", today.get(14));
        reading.put("todayMagnitude", magnitude(text, Double.parseDouble(today.get(12))));
        reading.put("hdFpBoth", Csv.format(Stats.sig(hdBoth, 2)));
        reading.put("todayFpBoth", Csv.format(Stats.sig(todayBoth, 2)));
        reading.put(
                "spent",
                text.get(Math.max(hdBoth, todayBoth) < 1 ? "reading.spent.alone" : "reading.spent.notAlone")
                        .render());
        return text.get("reading").render(reading);
    }
}
