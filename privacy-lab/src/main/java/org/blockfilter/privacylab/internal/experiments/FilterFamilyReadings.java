package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * Experiment 7's readings that compare its rows (the Bloom rule's departures, blocked against standard Bloom, the
 * ribbon's rounding cost), each choosing its sentence among the sections of exp7's template. Stateless.
 */
final class FilterFamilyReadings {
    private FilterFamilyReadings() {}

    /** A Bloom cell "departs" from the rule when measured/rule is this far from 1 and its interval excludes the rule. */
    static final double DEPARTURE = 1.5;

    /** The rule table's cells that depart from the rule, by ratio, k and n (from the rows of {@code rules}). */
    static String departures(Template.Sections text, Csv rules) {
        Set<String> cells = new LinkedHashSet<>();
        for (List<String> r : rules.rows()) {
            double rule = Double.parseDouble(r.get(7));
            double ratio = Double.parseDouble(r.get(8));
            boolean excluded = Double.parseDouble(r.get(5)) > rule || Double.parseDouble(r.get(6)) < rule;
            if (excluded && (ratio >= DEPARTURE || ratio <= 1 / DEPARTURE)) {
                cells.add(text.get("rules.departure")
                        .render(Map.of(
                                "ratio", String.format(Locale.ROOT, ratio >= 1 ? "%.0f" : "%.2f", ratio),
                                "k", r.get(3),
                                "n", Lab.count(Long.parseLong(r.get(0))))));
            }
        }
        return cells.isEmpty()
                ? text.get("rules.noDeparture").render(Map.of("factor", DEPARTURE))
                : text.get("rules.departures").render(Map.of("cells", String.join(" and the ", cells)));
    }

    /** Blocked Bloom "cannot reach low rates" when at the lowest target it measures this many times Bloom's rate. */
    static final double BLOCKED_SLOWER = 10;

    /** Whether blocked Bloom falls behind a standard Bloom filter at the lowest target both were measured at, at n. */
    static String blockedReading(Template.Sections text, List<FilterFamilyExperiment.Row> rows, int n) {
        FilterFamilyExperiment.Row bloom = null;
        FilterFamilyExperiment.Row blocked = null;
        for (FilterFamilyExperiment.Row r : rows) {
            if (r.n() != n || Double.isNaN(r.target())) {
                continue;
            }
            if (r.family().equals("Bloom") && (bloom == null || r.target() < bloom.target())) {
                bloom = r;
            }
            if (r.family().equals("blocked Bloom") && (blocked == null || r.target() < blocked.target())) {
                blocked = r;
            }
        }
        if (bloom == null || blocked == null || bloom.target() != blocked.target()) {
            throw new IllegalStateException("no Bloom and blocked Bloom rows at one lowest target for n = " + n);
        }
        if (blocked.measuredRate() >= BLOCKED_SLOWER * bloom.measuredRate()) {
            return text.get("reading.blocked.slow").render();
        }
        return text.get("reading.blocked.close")
                .render(Map.of(
                        "target", Csv.format(bloom.target()),
                        "blocked", Csv.format(Stats.sig(blocked.measuredRate(), 3)),
                        "blockedBits", String.format(Locale.ROOT, "%.2f", blocked.bitsPerElement()),
                        "bloom", Csv.format(Stats.sig(bloom.measuredRate(), 3)),
                        "bloomBits", String.format(Locale.ROOT, "%.2f", bloom.bitsPerElement())));
    }

    /**
     * The targets of the ribbon rows where rounding r = ceil(log2(1/eps)) up costs most, ceil(log2(1/eps)) /
     * log2(1/eps) being largest (ties within 1e-9 all named), each with the rate 2^-r it gives.
     */
    static String ribbonRounding(Template.Sections text, List<FilterFamilyExperiment.Row> rows) {
        List<Double> targets = rows.stream()
                .filter(r -> r.family().equals("ribbon") && !Double.isNaN(r.target()))
                .map(FilterFamilyExperiment.Row::target)
                .distinct()
                .sorted(Comparator.reverseOrder())
                .toList();
        double most = targets.stream()
                .mapToDouble(FilterFamilyReadings::roundingCost)
                .max()
                .orElse(Double.NaN);
        List<String> worst = new ArrayList<>();
        for (double eps : targets) {
            if (roundingCost(eps) >= most * (1 - 1e-9)) {
                int r = (int) Math.ceil(FilterFamilyExperiment.log2(1 / eps));
                long decade = Math.round(-Math.log10(eps));
                boolean power = Math.abs(eps - Math.pow(10, -decade)) < 1e-12 * eps;
                worst.add(text.get("reading.ribbon.worst")
                        .render(Map.of(
                                "target",
                                power ? "1e-" + decade : Csv.format(eps),
                                "r",
                                r,
                                "rate",
                                new java.math.BigDecimal(Math.pow(2, -r))
                                        .round(new java.math.MathContext(2))
                                        .toPlainString(),
                                "plain",
                                new java.math.BigDecimal(eps)
                                        .round(new java.math.MathContext(6))
                                        .stripTrailingZeros()
                                        .toPlainString())));
            }
        }
        return String.join(" and ", worst);
    }

    private static double roundingCost(double eps) {
        double bits = FilterFamilyExperiment.log2(1 / eps);
        return Math.ceil(bits) / bits;
    }
}
