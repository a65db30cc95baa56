package org.blockfilter.privacylab.internal.experiments;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;

/** The "Reading" paragraph of experiment 1, each reading chosen from the numbers of the summary. Stateless. */
final class SingleFilterNotes {
    /** The analytic count follows the measured one "closely" when every cell is within this relative distance. */
    static final double CLOSE = 0.10;

    /** A one-address filter's rate is "far below" the target when its count is below this fraction of the naive one. */
    static final double FAR_BELOW = 0.1;

    private static final int MODEL = 0;
    private static final int RATE = 1;
    private static final int N = 2;
    private static final int EXPECTED_FP = 7;
    private static final int ANALYTIC_FP = 11;
    private static final int TARGET_RATE_FP = 12;
    private static final int PH1 = 13;

    private SingleFilterNotes() {}

    private static List<String> find(Csv summary, String model, double rate, int n) {
        for (List<String> r : summary.rows()) {
            if (r.get(MODEL).equals(model) && num(r, RATE) == rate && Integer.parseInt(r.get(N)) == n) {
                return r;
            }
        }
        return null;
    }

    private static double num(List<String> row, int column) {
        return Double.parseDouble(row.get(column));
    }

    /** The paragraph from the sections {@code reading.*} of {@code text}. */
    static String text(Template.Sections text, Csv summary, long universe) {
        List<String> out = new ArrayList<>();
        List<String> small = find(summary, "Y2014", Wallets.RATE_2014, 1);
        List<String> mid = find(summary, "Y2014", Wallets.RATE_2014, 100);
        List<String> today = find(summary, "TODAY", Wallets.RATE_TODAY, 1);
        if (small != null) {
            double fp = num(small, EXPECTED_FP);
            double naive = num(small, TARGET_RATE_FP);
            String below = fp < FAR_BELOW * naive
                    ? "reading.oneAddress.farBelow"
                    : fp < naive ? "reading.oneAddress.below" : "reading.oneAddress.notBelow";
            out.add(text.get("reading.oneAddress")
                    .render(Map.of(
                            "bytes", small.get(5),
                            "belowTarget", text.get(below).render(),
                            "fp", small.get(EXPECTED_FP),
                            "naiveFp", small.get(TARGET_RATE_FP),
                            "ph1", small.get(PH1))));
        }
        if (mid != null) {
            out.add(text.get("reading.hundredAddresses")
                    .render(Map.of("fp", mid.get(EXPECTED_FP), "ph1", mid.get(PH1))));
        }
        if (today != null) {
            out.add(text.get("reading.today")
                    .render(Map.of(
                            "bytes", today.get(5),
                            "funcs", today.get(6),
                            "fp", today.get(EXPECTED_FP),
                            "ph1", today.get(PH1))));
        }
        out.add(qualitative(text, summary));
        out.add(analytic(text, summary) + " " + naive(text, summary));
        out.add(text.get("reading.synthetic").render(Map.of("others", Lab.count(universe))));
        return String.join(" ", out);
    }

    private static String cell(Template.Sections text, List<String> row) {
        return text.get("reading.cell").render(Map.of("model", row.get(MODEL), "rate", row.get(RATE), "n", row.get(N)));
    }

    /**
     * The paper's qualitative result on its wallet (Y2014): P_h(1) does not rise as addresses are added at one rate,
     * nor as the rate is raised at one N.
     */
    private static String qualitative(Template.Sections text, Csv summary) {
        List<List<String>> y2014 = summary.rows().stream()
                .filter(r -> r.get(MODEL).equals("Y2014"))
                .toList();
        for (List<String> a : y2014) {
            for (List<String> b : y2014) {
                boolean moreAddresses = a.get(RATE).equals(b.get(RATE)) && num(b, N) > num(a, N);
                boolean higherRate = a.get(N).equals(b.get(N)) && num(b, RATE) > num(a, RATE);
                if ((moreAddresses || higherRate) && num(b, PH1) > num(a, PH1)) {
                    return text.get("reading.qualitative.departs")
                            .render(Map.of(
                                    "ph1", a.get(PH1),
                                    "cell", cell(text, a),
                                    "otherPh1", b.get(PH1),
                                    "otherCell", cell(text, b)));
                }
            }
        }
        return text.get("reading.qualitative.agrees").render();
    }

    /** Whether the analytic count is within {@link #CLOSE} of the measured one in every cell. */
    private static String analytic(Template.Sections text, Csv summary) {
        List<String> worst = null;
        double worstGap = 0;
        for (List<String> r : summary.rows()) {
            double fp = num(r, EXPECTED_FP);
            double gap = fp > 0 ? Math.abs(num(r, ANALYTIC_FP) / fp - 1) : num(r, ANALYTIC_FP) > 0 ? 1 : 0;
            if (gap > worstGap) {
                worstGap = gap;
                worst = r;
            }
        }
        if (worst == null || worstGap <= CLOSE) {
            return text.get("reading.analytic.close").render();
        }
        return text.get("reading.analytic.apart")
                .render(Map.of(
                        "percent", Math.round(100 * worstGap),
                        "cell", cell(text, worst),
                        "analytic", worst.get(ANALYTIC_FP),
                        "fp", worst.get(EXPECTED_FP)));
    }

    /** Whether the naive estimate (target rate x universe) is above every filter's expected count. */
    private static String naive(Template.Sections text, Csv summary) {
        return summary.rows().stream()
                .filter(r -> num(r, TARGET_RATE_FP) <= num(r, EXPECTED_FP))
                .min(Comparator.comparingDouble(r -> num(r, TARGET_RATE_FP) / Math.max(num(r, EXPECTED_FP), 1e-300)))
                .map(r -> text.get("reading.naive.notEverywhere")
                        .render(Map.of(
                                "cell", cell(text, r),
                                "naive", r.get(TARGET_RATE_FP),
                                "fp", r.get(EXPECTED_FP))))
                .orElseGet(() -> text.get("reading.naive.overstates").render());
    }
}
