package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * The readings of experiment 2's BIP 37 adversary sections (the element-count estimate and the intersection over
 * many wallets), each sentence chosen from the section's table among the sections of exp2's template. Stateless.
 */
final class Bip37Readings {
    private Bip37Readings() {}

    /** "Almost exactly": N_hat is N for at least this share of a small pre-HD wallet's filters. */
    static final double EXACT_SHARE = 0.9;

    /** What the estimate table {@code t} (exp2_element_estimate.csv) shows, each sentence chosen from its rows. */
    static String estimateFindings(Template.Sections text, Csv t) {
        String small = null;
        String hundred = null;
        Map<String, List<String>> counts = new LinkedHashMap<>();
        for (List<String> r : t.rows()) {
            int n = Integer.parseInt(r.get(2));
            double share = Double.parseDouble(r.get(13));
            double sd = Double.parseDouble(r.get(8));
            Map<String, Object> v = Map.of("n", n, "share", r.get(13), "sd", r.get(8));
            if (r.get(0).equals("Y2014") && n <= 20 && small == null && (share < EXACT_SHARE || sd >= 1)) {
                small = text.get("estimate.small.notExact").render(v);
            }
            if (r.get(0).equals("Y2014") && n == 100) {
                hundred = share < 0.5 && sd >= 1
                        ? text.get("estimate.hundred.offByOne").render()
                        : text.get("estimate.hundred.close").render(Map.of("share", r.get(13), "sd", r.get(8)));
            }
            if (!r.get(0).equals("Y2014") && n <= 20) {
                counts.computeIfAbsent(r.get(0), k -> new ArrayList<>()).add(r.get(4));
            }
        }
        if (hundred == null) {
            throw new IllegalStateException("the estimate table has no pre-HD row at N = 100");
        }
        String hd = text.get("estimate.hd.flat").render();
        for (Map.Entry<String, List<String>> e : counts.entrySet()) {
            if (e.getValue().stream().distinct().count() > 1) {
                hd = text.get("estimate.hd.notFlat")
                        .render(Map.of("model", e.getKey(), "counts", String.join(", ", e.getValue())));
                break;
            }
        }
        return text.get("estimate.reading")
                .render(Map.of(
                        "small",
                                small != null
                                        ? small
                                        : text.get("estimate.small.exact").render(),
                        "hundred", hundred,
                        "hd", hd));
    }

    /** P_h(N) from which a wallet counts as "named completely" after one restart. */
    static final double NAMED = 0.99;

    /** What one restart does to setting {@code today}'s wallet (today's bitcoinj), from its rows of {@code t}. */
    static String todayReading(Template.Sections text, Csv t, String today) {
        List<String> one = null;
        List<String> two = null;
        for (List<String> r : t.rows()) {
            if (r.get(0).equals(today)) {
                one = r.get(1).equals("1") ? r : one;
                two = r.get(1).equals("2") ? r : two;
            }
        }
        if (one == null || two == null) {
            throw new IllegalStateException("no rows for one and two filters of setting " + today);
        }
        double fp = Double.parseDouble(one.get(4));
        double phN = Double.parseDouble(two.get(11));
        return text.get("intersection.reading")
                .render(Map.of(
                        "n", one.get(3),
                        "fp", fp >= 10 ? Lab.count(Math.round(Stats.sig(fp, 2))) : Csv.format(Stats.sig(fp, 2)),
                        "named",
                                phN >= NAMED
                                        ? text.get("intersection.reading.named").render()
                                        : text.get("intersection.reading.partly")
                                                .render(Map.of("phN", two.get(11)))));
    }

    /**
     * The K_j reading from the table {@code kj}: whether the order by n_hat is right for every restart setting
     * ({@code restarts}: their names), and whether today's wallet's N_hat overshoots the true count for j >= 2 (the
     * larger filters intersected; setting {@code today}).
     */
    static String kjReading(Template.Sections text, Csv kj, List<String> restarts, String today) {
        String restartText = null;
        String todayText = null;
        for (List<String> r : kj.rows()) {
            if (restartText == null && restarts.contains(r.get(0)) && Double.parseDouble(r.get(4)) < 1) {
                restartText = text.get("kj.restarts.wrong").render(Map.of("setting", r.get(0), "share", r.get(4)));
            }
            if (todayText == null
                    && r.get(0).equals(today)
                    && Integer.parseInt(r.get(1)) >= 2
                    && Double.parseDouble(r.get(8)) <= Double.parseDouble(r.get(7))) {
                todayText = text.get("kj.today.close").render(Map.of("j", r.get(1), "nHat", r.get(8), "n", r.get(7)));
            }
        }
        return text.get("kj")
                .render(Map.of(
                        "restarts",
                                restartText != null
                                        ? restartText
                                        : text.get("kj.restarts.right").render(),
                        "today",
                                todayText != null
                                        ? todayText
                                        : text.get("kj.today.overshoots").render()));
    }
}
