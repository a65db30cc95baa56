package org.blockfilter.privacylab.internal.experiments;

import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Template;

/** The "Reading" paragraph of experiment 1, written from the numbers. Stateless. */
final class SingleFilterNotes {
    private SingleFilterNotes() {}

    private static List<String> find(Csv summary, String model, double rate, int n) {
        for (List<String> r : summary.rows()) {
            if (r.get(0).equals(model) && Double.parseDouble(r.get(1)) == rate && Integer.parseInt(r.get(2)) == n) {
                return r;
            }
        }
        return null;
    }

    /** The paragraph from the sections {@code reading.*} of {@code text}. */
    static String text(Template.Sections text, Csv summary, long universe) {
        StringBuilder sb = new StringBuilder();
        List<String> small = find(summary, "Y2014", Wallets.RATE_2014, 1);
        List<String> mid = find(summary, "Y2014", Wallets.RATE_2014, 100);
        List<String> today = find(summary, "TODAY", Wallets.RATE_TODAY, 1);
        if (small != null) {
            sb.append(text.get("reading.oneAddress")
                            .render(Map.of(
                                    "bytes", small.get(5),
                                    "fp", small.get(7),
                                    "naiveFp", small.get(12),
                                    "ph1", small.get(13))))
                    .append(' ');
        }
        if (mid != null) {
            sb.append(text.get("reading.hundredAddresses").render(Map.of("fp", mid.get(7), "ph1", mid.get(13))))
                    .append(' ');
        }
        if (today != null) {
            sb.append(text.get("reading.today")
                            .render(Map.of(
                                    "bytes", today.get(5),
                                    "funcs", today.get(6),
                                    "fp", today.get(7),
                                    "ph1", today.get(13))))
                    .append(' ');
        }
        sb.append(text.get("reading.conclusion").render(Map.of("others", Lab.count(universe))));
        return sb.toString();
    }
}
