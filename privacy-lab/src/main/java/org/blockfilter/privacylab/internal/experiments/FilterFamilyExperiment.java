package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.blockfilter.filters.Bip158;
import org.blockfilter.privacylab.internal.filters.QuotientFilter;
import org.blockfilter.privacylab.internal.filters.RibbonFilter;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * Experiment 7: the approximate-membership filter family measured side by side. Space (allocated bits of the real
 * structure) and false-positive rate (counted over random non-member queries, Wilson 95% interval) of Bloom, blocked
 * Bloom, counting Bloom, cuckoo and xor filters from the FastFilter library (io.github.fastfilter:fastfilter), of the
 * quotient and ribbon filters written here ({@link QuotientFilter}, {@link RibbonFilter}: no kept Java library has
 * them), and of the {@code filters} module's Golomb-coded set, at BIP 158's rate 1/M and at 1e-2 .. 1e-6, beside the
 * information-theoretic bound log2(1/eps) bits per element; the Bloom rules of thumb 0.6185^(m/n) and ~4.8 bits per
 * decade checked on the measured Bloom rows.
 */
public final class FilterFamilyExperiment {
    /** Target rates: 1e-2 .. 1e-6 and BIP 158's 1/M. */
    static final double[] TARGETS = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1.0 / Bip158.BASIC_M};
    /** The optimal Bloom filter's rate per bit of m/n: 2^(-ln 2) = 0.6185. */
    static final double BLOOM_BASE = Math.pow(0.5, Math.log(2));
    /** Bits per decade of rate for an optimal Bloom filter: log2(10) / ln 2 = 4.79. */
    static final double BLOOM_BITS_PER_DECADE = Math.log(10) / Math.log(2) / Math.log(2);
    /** BIP 158's M / 2^P, the ratio that makes Golomb-Rice coding near optimal. */
    static final double GCS_M_OVER_2P = (double) Bip158.BASIC_M / (1L << Bip158.BASIC_P);

    static final double LN2 = Math.log(2);
    /** Quotient filters: the table is the smallest power of two whose load n/2^q stays at or below this. */
    static final double QUOTIENT_MAX_LOAD = 0.95;
    /** Ribbon filters: m = (1 + this) n slots, rounded up to 64 (w = 64 needs about this much at n = 10^6). */
    static final double RIBBON_OVERHEAD = 0.10;
    /** Ribbon filters: seeds tried before construction gives up. */
    static final int RIBBON_MAX_ATTEMPTS = 50;
    /** From this n on, queries are capped at 10M instead of 100M (lookups miss the cache; the rates do not depend on n). */
    static final int LARGE_N_FROM = 100_000;

    private FilterFamilyExperiment() {}

    /**
     * One measured (or, for the bound, computed) structure.
     *
     * @param family         filter family (the plot's series)
     * @param implementation the class that was measured
     * @param parameters     its parameters
     * @param target         the rate it was sized for (NaN when the implementation has a fixed rate)
     * @param n              elements inserted
     * @param bits           allocated or serialized bits
     * @param queries        random non-member queries (0 for the bound)
     * @param falsePositives queries that matched
     * @param formulaRate    the paper's rate for these exact parameters (NaN when none is checked)
     * @param formula        which formula
     * @param seconds        build plus query time
     */
    record Row(
            String family,
            String implementation,
            String parameters,
            double target,
            int n,
            double bits,
            long queries,
            long falsePositives,
            double formulaRate,
            String formula,
            double seconds) {
        double bitsPerElement() {
            return bits / n;
        }

        double measuredRate() {
            return queries == 0 ? Double.NaN : (double) falsePositives / queries;
        }

        double[] ci95() {
            return Stats.wilson(falsePositives, queries);
        }

        /** The rate the bound is taken at: the target, or the formula's rate for fixed-rate filters. */
        double nominalRate() {
            return Double.isNaN(target) ? formulaRate : target;
        }

        double boundBitsPerElement() {
            double rate = nominalRate();
            return log2(1 / (Double.isNaN(rate) ? measuredRate() : rate));
        }
    }

    /** The columns of exp7_bloom_rules.csv. */
    static final String[] RULES_COLUMNS = {
        "n",
        "target_rate",
        "bits_per_element",
        "hash_funcs",
        "measured_rate",
        "ci95_lo",
        "ci95_hi",
        "rule_0.6185^(m/n)",
        "measured/rule",
        "rule_bits_1.44*log2(1/eps)",
        "bits/rule_bits"
    };

    public static void run(Lab lab) {
        Path dir = lab.dir("exp7-filter-family");
        int[] sizes = lab.quick() ? new int[] {2_000} : new int[] {7_400, 1_000_000};
        List<Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int n : sizes) {
            rows.addAll(FilterFamilyMeasure.measure(lab, n));
        }
        double totalSeconds = (System.nanoTime() - t0) / 1e9;
        long totalQueries = rows.stream().mapToLong(Row::queries).sum();
        lab.log().printf(Locale.ROOT, "exp7: %,d queries in %.1f s%n", totalQueries, totalSeconds);
        for (Row r : rows) {
            lab.log()
                    .printf(
                            Locale.ROOT,
                            "exp7: n=%d %s %s %s: %.2f s%n",
                            r.n(),
                            r.implementation(),
                            r.parameters(),
                            r.target(),
                            r.seconds());
        }

        Csv table = new Csv(
                "n",
                "family",
                "implementation",
                "parameters",
                "target_rate",
                "bits_per_element",
                "bound_bits_per_element",
                "overhead_vs_bound",
                "queries",
                "false_positives",
                "measured_rate",
                "ci95_lo",
                "ci95_hi",
                "formula_rate",
                "formula");
        for (Row r : rows) {
            double[] ci = r.ci95();
            table.row(
                    r.n(),
                    r.family(),
                    r.implementation(),
                    r.parameters(),
                    Double.isNaN(r.target()) ? "fixed" : Stats.sig(r.target(), 4),
                    Stats.sig(r.bitsPerElement(), 4),
                    Stats.sig(r.boundBitsPerElement(), 4),
                    Stats.sig(r.bitsPerElement() / r.boundBitsPerElement(), 3),
                    r.queries(),
                    r.falsePositives(),
                    r.queries() == 0 ? "" : Stats.sig(r.measuredRate(), 3),
                    r.queries() == 0 ? "" : Stats.sig(ci[0], 3),
                    r.queries() == 0 ? "" : Stats.sig(ci[1], 3),
                    Double.isNaN(r.formulaRate()) ? "" : Stats.sig(r.formulaRate(), 4),
                    r.formula());
        }
        table.write(dir.resolve("exp7_filters.csv"));

        int plotN = sizes[0];
        List<Row> plotted = rows.stream().filter(r -> r.n() == plotN).toList();
        writePlot(dir.resolve("exp7_space_vs_rate.png"), plotted, plotN);

        Csv rules = new Csv(RULES_COLUMNS);
        for (Row r : rows) {
            if (!r.family().equals("Bloom")) {
                continue;
            }
            double[] ci = r.ci95();
            double rule = Math.pow(BLOOM_BASE, r.bitsPerElement());
            double ruleBits = log2(1 / r.target()) / LN2;
            rules.row(
                    r.n(),
                    Stats.sig(r.target(), 4),
                    Stats.sig(r.bitsPerElement(), 4),
                    FilterFamilyMeasure.bloomK(r.bitsPerElement()),
                    Stats.sig(r.measuredRate(), 3),
                    Stats.sig(ci[0], 3),
                    Stats.sig(ci[1], 3),
                    Stats.sig(rule, 4),
                    Stats.sig(r.measuredRate() / rule, 3),
                    Stats.sig(ruleBits, 4),
                    Stats.sig(r.bitsPerElement() / ruleBits, 4));
        }
        rules.write(dir.resolve("exp7_bloom_rules.csv"));

        Template.Sections text = Template.load("exp7.txt");
        Report rep = lab.report(dir, text, "exp7");
        rep.heading("Setup");
        List<String> loads = new ArrayList<>();
        for (int n : sizes) {
            loads.add(text.get("quotientLoad")
                    .render(Map.of(
                            "load",
                            String.format(Locale.ROOT, "%.3f", FilterFamilyMeasure.quotientLoad(n)),
                            "n",
                            Lab.count(n))));
        }
        Map<String, Object> setup = new HashMap<>();
        setup.put("sizes", Arrays.stream(sizes).mapToObj(Lab::count).toList());
        setup.put("quickNote", lab.quick() ? " " + text.get("sizes.quick").render() : "");
        setup.put("expectedFp", lab.quick() ? "20" : "200");
        setup.put("minQueries", Lab.count(lab.quick() ? 100_000 : 1_000_000));
        setup.put("maxQueries", Lab.count(lab.quick() ? 1_000_000 : 100_000_000));
        setup.put("totalQueries", Lab.count(totalQueries));
        setup.put("maxLoad", QUOTIENT_MAX_LOAD);
        setup.put("loads", String.join(" and ", loads));
        setup.put("overhead", RIBBON_OVERHEAD);
        setup.put("maxAttempts", RIBBON_MAX_ATTEMPTS);
        rep.bullets(text.get("setup").lines(setup));
        rep.heading("Bits per element against false-positive rate");
        rep.image("exp7_space_vs_rate.png", "bits per element vs false-positive rate per filter family");
        rep.paragraph(text.get("rates").render());
        rep.table(table);
        rep.heading("The Bloom rules of thumb, checked");
        List<String> slopes = new ArrayList<>();
        for (int n : sizes) {
            slopes.add(text.get("rules.slope")
                    .render(Map.of(
                            "bitsPerDecade",
                            String.format(
                                    Locale.ROOT,
                                    "%.2f",
                                    bitsPerDecade(rows.stream()
                                            .filter(r -> r.family().equals("Bloom") && r.n() == n)
                                            .toList())),
                            "n",
                            Lab.count(n))));
        }
        rep.paragraph(text.get("rules")
                .render(Map.of(
                        "base", String.format(Locale.ROOT, "%.4f", BLOOM_BASE),
                        "bitsPerDecade", String.format(Locale.ROOT, "%.2f", BLOOM_BITS_PER_DECADE),
                        "fitted", String.join(" and ", slopes),
                        "departures", FilterFamilyReadings.departures(text, rules))));
        rep.table(rules);
        List<String> otherSlopes = new ArrayList<>();
        for (String fam : List.of("GCS", "quotient", "ribbon")) {
            for (int n : sizes) {
                otherSlopes.add(text.get("otherRules.slope")
                        .render(Map.of(
                                "family",
                                fam,
                                "bitsPerDecade",
                                String.format(
                                        Locale.ROOT,
                                        "%.2f",
                                        bitsPerDecade(rows.stream()
                                                .filter(r -> r.family().equals(fam) && r.n() == n)
                                                .toList())),
                                "n",
                                Lab.count(n))));
            }
        }
        rep.paragraph(text.get("otherRules")
                .render(Map.of(
                        "log2of10", String.format(Locale.ROOT, "%.2f", log2(10)),
                        "fitted", String.join(", ", otherSlopes))));
        rep.heading("Reading");
        rep.bullets(readings(text, rows, plotN));
        rep.heading("Left out");
        rep.bullets(text.get("leftOut").lines(Map.of()));
        rep.write();
    }

    /** Least-squares slope of bits per element against log10(1/measured rate), over rows with false positives. */
    static double bitsPerDecade(List<Row> bloomRows) {
        List<double[]> pts = new ArrayList<>();
        for (Row r : bloomRows) {
            if (r.falsePositives() > 0) {
                pts.add(new double[] {Math.log10(1 / r.measuredRate()), r.bitsPerElement()});
            }
        }
        double mx = pts.stream().mapToDouble(p -> p[0]).average().orElse(Double.NaN);
        double my = pts.stream().mapToDouble(p -> p[1]).average().orElse(Double.NaN);
        double sxy = 0;
        double sxx = 0;
        for (double[] p : pts) {
            sxy += (p[0] - mx) * (p[1] - my);
            sxx += (p[0] - mx) * (p[0] - mx);
        }
        return sxy / sxx;
    }

    private static List<String> readings(Template.Sections text, List<Row> rows, int n) {
        List<String> out = new ArrayList<>();
        double bip = 1.0 / Bip158.BASIC_M;
        for (Row r : rows) {
            if (r.n() == n && r.target() == bip && !r.family().equals("bound")) {
                out.add(text.get("reading.atBip158")
                        .render(Map.of(
                                "family", r.family(),
                                "implementation", r.implementation(),
                                "bits", String.format(Locale.ROOT, "%.2f", r.bitsPerElement()),
                                "overBound",
                                        String.format(
                                                Locale.ROOT, "%.2f", r.bitsPerElement() / r.boundBitsPerElement()),
                                "bound", String.format(Locale.ROOT, "%.2f", r.boundBitsPerElement()),
                                "rate", Csv.format(Stats.sig(r.measuredRate(), 3)),
                                "queries", Lab.count(r.queries()))));
            }
        }
        List<String> off = new ArrayList<>();
        int checked = 0;
        for (Row r : rows) {
            if (r.queries() == 0 || Double.isNaN(r.formulaRate())) {
                continue;
            }
            checked++;
            double[] ci = r.ci95();
            if (r.formulaRate() < ci[0] || r.formulaRate() > ci[1]) {
                Map<String, Object> cell = new HashMap<>();
                cell.put("n", Lab.count(r.n()));
                cell.put("implementation", r.implementation());
                cell.put("parameters", r.parameters());
                cell.put("rate", Csv.format(Stats.sig(r.measuredRate(), 3)));
                cell.put("lo", Csv.format(Stats.sig(ci[0], 3)));
                cell.put("hi", Csv.format(Stats.sig(ci[1], 3)));
                cell.put("formula", Csv.format(Stats.sig(r.formulaRate(), 3)));
                cell.put("ratio", String.format(Locale.ROOT, "%.2f", r.measuredRate() / r.formulaRate()));
                off.add(text.get("reading.formulaOff").render(cell));
            }
        }
        out.add(text.get("reading.formula")
                .render(Map.of(
                        "checked",
                        checked,
                        "off",
                        off.size(),
                        "expected",
                        String.format(Locale.ROOT, "%.1f", 0.05 * checked),
                        "cells",
                        off.isEmpty() ? "none" : String.join("; ", off))));
        out.add(FilterFamilyReadings.blockedReading(text, rows, n));
        out.add(text.get("reading.counting").render());
        out.addAll(quotientAndRibbonReadings(text, rows));
        out.add(text.get("reading.fingerprints").render());
        return out;
    }

    /** What the quotient and ribbon rows show, computed from the rows at each n. */
    static List<String> quotientAndRibbonReadings(Template.Sections text, List<Row> rows) {
        List<String> out = new ArrayList<>();
        List<Integer> sizes = rows.stream().map(Row::n).distinct().toList();
        List<String> quotient = new ArrayList<>();
        List<String> ribbon = new ArrayList<>();
        for (int n : sizes) {
            List<Row> q = rows.stream()
                    .filter(r -> r.n() == n && r.family().equals("quotient"))
                    .toList();
            List<Row> rb = rows.stream()
                    .filter(r -> r.n() == n && r.family().equals("ribbon"))
                    .toList();
            if (q.isEmpty() || rb.isEmpty()) {
                continue;
            }
            double load = FilterFamilyMeasure.quotientLoad(n);
            quotient.add(text.get("reading.quotientAt")
                    .render(Map.of(
                            "n", Lab.count(n),
                            "load", String.format(Locale.ROOT, "%.3f", load),
                            "bitsPerRemainderBit", String.format(Locale.ROOT, "%.2f", 1 / load),
                            "overBound", overheadRange(q),
                            "targets", targetsWhere(rows, q, "Bloom"))));
            ribbon.add(text.get("reading.ribbonAt")
                    .render(Map.of(
                            "n", Lab.count(n),
                            "overBound", overheadRange(rb),
                            "seeds",
                                    String.join(
                                            ", ",
                                            rb.stream()
                                                    .map(r -> r.parameters().replaceAll(".*seeds tried=", ""))
                                                    .toList()),
                            "targets", targetsWhere(rows, rb, "GCS"))));
        }
        if (!quotient.isEmpty()) {
            out.add(text.get("reading.quotient").render(Map.of("sizes", String.join("; ", quotient))));
            out.add(text.get("reading.ribbon")
                    .render(Map.of(
                            "sizes",
                            String.join("; ", ribbon),
                            "worst",
                            FilterFamilyReadings.ribbonRounding(text, rows))));
        }
        return out;
    }

    private static String overheadRange(List<Row> rs) {
        double lo = rs.stream()
                .mapToDouble(r -> r.bitsPerElement() / r.boundBitsPerElement())
                .min()
                .orElse(Double.NaN);
        double hi = rs.stream()
                .mapToDouble(r -> r.bitsPerElement() / r.boundBitsPerElement())
                .max()
                .orElse(Double.NaN);
        return String.format(Locale.ROOT, "%.2f-%.2fx", lo, hi);
    }

    /** The targets at which each of {@code rs} takes fewer bits than {@code family}'s row at the same n and target. */
    private static String targetsWhere(List<Row> rows, List<Row> rs, String family) {
        List<String> out = new ArrayList<>();
        for (Row r : rs) {
            rows.stream()
                    .filter(o -> o.n() == r.n() && o.family().equals(family) && o.target() == r.target())
                    .findFirst()
                    .filter(o -> r.bits() < o.bits())
                    .ifPresent(o ->
                            out.add(r.target() == 1.0 / Bip158.BASIC_M ? "1/M" : Csv.format(Stats.sig(r.target(), 3))));
        }
        return out.isEmpty() ? "no target" : String.join(", ", out);
    }

    private static void writePlot(Path file, List<Row> rows, int n) {
        Plot plot = new Plot(
                        "Space against false-positive rate, n = " + Lab.count(n),
                        "false-positive rate (measured; log scale)",
                        "bits per element (log scale)",
                        760)
                .logX()
                .logY()
                .legendBelow()
                .widePalette();
        List<String> families = new ArrayList<>();
        for (Row r : rows) {
            if (!r.family().equals("bound") && !families.contains(r.family())) {
                families.add(r.family());
            }
        }
        int group = 0;
        for (String fam : families) {
            List<Row> rs = rows.stream()
                    .filter(r -> r.family().equals(fam))
                    .sorted((a, b) -> Double.compare(b.measuredRate(), a.measuredRate()))
                    .toList();
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> lo = new ArrayList<>();
            List<Double> hi = new ArrayList<>();
            List<Double> zx = new ArrayList<>();
            List<Double> zy = new ArrayList<>();
            for (Row r : rs) {
                double[] ci = r.ci95();
                if (r.falsePositives() == 0) {
                    zx.add(ci[1]);
                    zy.add(r.bitsPerElement());
                    continue;
                }
                x.add(r.measuredRate());
                y.add(r.bitsPerElement());
                lo.add(ci[0]);
                hi.add(ci[1]);
            }
            String impls = String.join(
                    ", ", rs.stream().map(Row::implementation).distinct().toList());
            if (fam.startsWith("cuckoo") || fam.startsWith("xor")) {
                plot.scatter(fam + " (" + impls + ")", x, y, group);
            } else {
                plot.measured(fam + " (" + impls + ")", x, y, group);
            }
            plot.xIntervals(y, lo, hi, group);
            if (!zx.isEmpty()) {
                plot.scatterDown(fam + ": 0 false positives, drawn at the 95% upper bound", zx, zy, group);
            }
            group++;
        }
        List<Double> bx = new ArrayList<>();
        List<Double> by = new ArrayList<>();
        List<Double> ry = new ArrayList<>();
        for (double e = 1e-7; e <= 0.021; e *= 1.5) {
            bx.add(e);
            by.add(log2(1 / e));
            ry.add(log2(1 / e) / LN2);
        }
        plot.modelBlack("information-theoretic bound log2(1/eps)", bx, by);
        plot.model("Bloom rule 1.44 log2(1/eps)", bx, ry, 0);
        plot.writePng(file);
    }

    static double log2(double x) {
        return Math.log(x) / LN2;
    }
}
