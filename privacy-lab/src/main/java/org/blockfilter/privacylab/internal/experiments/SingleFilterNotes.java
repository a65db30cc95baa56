package org.blockfilter.privacylab.internal.experiments;

import java.util.List;
import java.util.Locale;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;

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

    static String text(Csv summary, long universe) {
        StringBuilder sb = new StringBuilder();
        List<String> small = find(summary, "Y2014", Wallets.RATE_2014, 1);
        List<String> mid = find(summary, "Y2014", Wallets.RATE_2014, 100);
        List<String> today = find(summary, "TODAY", Wallets.RATE_TODAY, 1);
        if (small != null) {
            sb.append(String.format(
                    Locale.ROOT,
                    "With the paper's pre-HD defaults (rate 0.0005) a wallet of one address sends a %s-byte filter sized for 102 elements that holds 2: "
                            + "its real false-positive rate is far below the target, so the adversary sees %s false positives on average "
                            + "(the naive target-rate estimate would be %s) and P_h(1) = %s. ",
                    small.get(5),
                    small.get(7),
                    small.get(12),
                    small.get(13)));
        }
        if (mid != null) {
            sb.append(String.format(
                    Locale.ROOT,
                    "At N = 100 the filter is nearer its capacity: %s false positives, P_h(1) = %s. ",
                    mid.get(7),
                    mid.get(13)));
        }
        if (today != null) {
            sb.append(String.format(
                    Locale.ROOT,
                    "Today's bitcoinj inserts the lookahead keys too, so even a wallet with one used address sends a %s-byte filter with %s functions; "
                            + "at the 1e-5 default that gives %s false positives and P_h(1) = %s. ",
                    today.get(5),
                    today.get(6),
                    today.get(7),
                    today.get(13)));
        }
        sb.append(
                "This agrees with the paper's qualitative result: the fewer addresses a client has (relative to the filter's capacity), "
                        + "the more its filter gives away, and lowering the target rate makes it worse. The analytic column follows the measured one "
                        + "closely because it uses the filter's real size, hash count and element count; the naive estimate (target rate x universe) "
                        + "overstates the false positives, and hence the privacy, whenever a filter is below capacity, and bitcoinj's 2N + 100 sizing "
                        + "keeps small wallets far below capacity. The universe here is synthetic ("
                        + Lab.count(universe)
                        + " uniformly random other addresses): a Bloom filter only sees MurmurHash3 of opaque bytes, so real addresses would behave the same.");
        return sb.toString();
    }
}
