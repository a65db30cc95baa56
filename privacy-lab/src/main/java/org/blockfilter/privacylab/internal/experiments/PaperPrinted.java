package org.blockfilter.privacylab.internal.experiments;

import static org.blockfilter.privacylab.internal.experiments.PaperComparison.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.privacylab.internal.adversaries.Metrics;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;

/**
 * The paper's printed numbers (Gervais et al., as restated in Karame and Androulaki's book) set beside the paper's
 * model and the lab's figures; where they were looked for and the sentences that compare them are sections of
 * experiment 1's template, each sentence chosen from the numbers. Stateless.
 */
final class PaperPrinted {
    private PaperPrinted() {}

    /** The paper's printed P_h(j) where one was found (the book's restatement), else empty. */
    static String printed(int n, int j) {
        return n == 10 && j == 10 ? "0.99" : "";
    }

    /** The printed capacity M of a new wallet's filter (the book's "M = 102"). */
    static final int PRINTED_NEW_WALLET_CAPACITY = 102;

    /** bitcoinj's filter for a pre-HD wallet of N keys (capacity 2N + 100 at the 2014 rate). */
    static org.blockfilter.filters.bloom.Bip37Filter bitcoinjFilter(int n) {
        return org.blockfilter.filters.bloom.Bip37Filter.fromBitcoinj(
                new BloomFilter(capacity(n), Wallets.RATE_2014, 0));
    }

    /** {@code x} to {@code decimals} decimal places, as a printed figure would show it. */
    static double round(double x, int decimals) {
        return new java.math.BigDecimal(x)
                .setScale(decimals, java.math.RoundingMode.HALF_UP)
                .doubleValue();
    }

    /** Whether the paper's model gives the printed 0.99 at N = 10 at its printed two decimals. */
    static boolean reproducesPointNineNine(double model10) {
        return round(model10, 2) == 0.99;
    }

    /** Whether a value reads as "almost 0.80": 0.8 at one decimal, and below 0.80. */
    static boolean almostPointEight(double x) {
        return round(x, 1) == 0.8 && x < 0.80;
    }

    /**
     * The paper's printed numbers (as restated in Karame and Androulaki's book) beside the paper's model recomputed
     * at the paper's 33M addresses and the lab's figure at this run's {@code universe}, one sentence each on the
     * difference, chosen from the numbers among the {@code paper.printed.*} sections of {@code text}. {@code ph} is
     * the P_h(j) table built by {@link PaperComparison#run}.
     */
    static Csv printedTable(Template.Sections text, long universe, Csv ph) {
        Csv t = new Csv("quantity", "paper_printed", "paper_model_recomputed", "lab", "source", "difference");
        long pu = Lab.PAPER_UNIVERSE;
        String where = universe == pu
                ? ""
                : text.get("paper.printed.ours.where")
                        .render(Map.of("universe", Lab.count(universe), "paper", Lab.count(pu)));
        List<String> n10 = phRow(ph, 10, 10);
        double m10 = paperModelPh(10, pu, 10);
        org.blockfilter.filters.bloom.Bip37Filter f10 = bitcoinjFilter(10);
        String model10 = reproducesPointNineNine(m10)
                ? text.get("paper.printed.n10.reproduces")
                        .render(Map.of(
                                "capacity", capacity(10),
                                "bytes", f10.sizeBytes(),
                                "funcs", f10.hashFuncs(),
                                "pf", sig(paperFalsePositiveRate(20, capacity(10), Wallets.RATE_2014)),
                                "universe", Lab.count(pu),
                                "sf", sig(paperFalsePositives(10, pu)),
                                "model", sig(m10),
                                "rounded", fmt2(round(m10, 2))))
                : text.get("paper.printed.n10.differs").render(Map.of("model", sig(m10)));
        t.row(
                "P_h(10) at N = 10 (all 10 addresses guessed from one filter at 0.05%)",
                printed(10, 10),
                sig(m10),
                n10.get(4) + " [" + n10.get(5) + ", " + n10.get(6) + "]",
                "book ch. 6 (ebrary.net/88246)",
                model10 + " " + oursAgainstModel(text, n10, where));
        List<String> n5 = phRow(ph, 5, 5);
        List<String> n15 = phRow(ph, 15, 15);
        double m5 = paperModelPh(5, pu, 5);
        double m15 = paperModelPh(15, pu, 15);
        Map<String, Object> v15 = new HashMap<>(Map.of("m15", sig(m15)));
        if (almostPointEight(m15)) {
            v15.putAll(Map.of("sf", sig(paperFalsePositives(15, pu)), "m5", sig(m5), "m10", sig(m10)));
        }
        t.row(
                "P_h(N) for N up to 15 (all addresses guessed from one filter)",
                "almost 0.80",
                "N = 5: " + sig(m5) + "; N = 10: " + sig(m10) + "; N = 15: " + sig(m15),
                "N = 5: " + n5.get(4) + "; N = 10: " + n10.get(4) + "; N = 15: " + n15.get(4),
                "book ch. 6 (ebrary.net/88246)",
                text.get(n15Section(m5, m10, m15)).render(v15) + " " + oursAgainstModel(text, n15, where));
        Wallets.Client one = Wallets.client(Wallets.Model.Y2014, 1);
        one.growTo(1);
        int capacity = one.elementCount() + Wallets.FILTER_MERGER_HEADROOM;
        org.blockfilter.filters.bloom.Bip37Filter f =
                org.blockfilter.filters.bloom.Bip37Filter.fromBitcoinj(one.filter(Wallets.RATE_2014, 1));
        t.row(
                "filter capacity M of a new wallet (one address)",
                String.valueOf(PRINTED_NEW_WALLET_CAPACITY),
                "M = 2N + 100 = " + capacity(1),
                capacity + " (bitcoinj's filter: " + f.sizeBytes() + " bytes, " + f.hashFuncs() + " hash functions)",
                "book ch. 6 (ebrary.net/88246)",
                capacityDifference(text, capacity));
        t.row(
                "addresses the adversary tests",
                "33 million studied addresses",
                "33 million",
                Lab.count(universe) + " synthetic addresses",
                "book ch. 6 (m.ebrary.net/88244)",
                text.get(universe == pu ? "paper.printed.universe.same" : "paper.printed.universe.smaller")
                        .render());
        t.row(
                "addresses that received payments to both their public key and its hash",
                "4,587 of 33 million (and > 99% of transactions pay to an address)",
                "n/a",
                "not measured",
                "book ch. 6 (m.ebrary.net/88244)",
                text.get("paper.printed.pubKeyAndHash").render());
        return t;
    }

    /**
     * The section that reads the model's P_h(15) against the printed "almost 0.80 below 15 addresses": it reproduces
     * it when it reads as almost 0.80 and is the lowest of the curves up to 15 addresses.
     */
    static String n15Section(double m5, double m10, double m15) {
        if (!almostPointEight(m15)) {
            return "paper.printed.n15.differs";
        }
        return m15 <= m5 && m15 <= m10 ? "paper.printed.n15.reproduces" : "paper.printed.n15.notLowest";
    }

    /** The capacity row's sentence: the lab's new wallet against the printed M. */
    static String capacityDifference(Template.Sections text, int capacity) {
        return capacity == PRINTED_NEW_WALLET_CAPACITY
                ? text.get("paper.printed.capacity.same").render()
                : text.get("paper.printed.capacity.differs")
                        .render(Map.of("capacity", capacity, "printed", PRINTED_NEW_WALLET_CAPACITY));
    }

    /** The sentence comparing ours with the paper's model at the same universe, for one row of the P_h table. */
    private static String oursAgainstModel(Template.Sections text, List<String> row, String where) {
        double ours = Double.parseDouble(row.get(4));
        double model = Double.parseDouble(row.get(3));
        String verdict = ours > model
                ? text.get("paper.printed.ours.higher").render(Map.of("meanFp", row.get(13), "plugin", row.get(14)))
                : text.get(ours == model ? "paper.printed.ours.equal" : "paper.printed.ours.lower")
                        .render();
        return text.get("paper.printed.ours")
                .render(Map.of("where", where, "ours", row.get(4), "model", row.get(3), "verdict", verdict));
    }

    private static String sig(double x) {
        return String.valueOf(Stats.sig(x, 3));
    }

    private static String fmt2(double x) {
        return String.format(Locale.ROOT, "%.2f", x);
    }

    private static List<String> phRow(Csv ph, int n, int j) {
        for (List<String> r : ph.rows()) {
            if (Integer.parseInt(r.get(0)) == n && Integer.parseInt(r.get(1)) == j) {
                return r;
            }
        }
        throw new IllegalStateException("no P_h row for N = " + n + ", j = " + j);
    }

    /**
     * The reading of the P_h table from the {@code paper.reading.*} sections of {@code text}, every number from the
     * table or the model (nothing typed in), each comparison choosing its sentence.
     */
    static String paperReading(Template.Sections text, Csv ph, long universe) {
        List<String> out = new ArrayList<>();
        double worstGap = 0;
        int worstN = 0;
        for (int n : PAPER_NS) {
            List<String> r = phRow(ph, n, n);
            out.add(text.get("paper.reading.n")
                    .render(Map.of(
                            "n", n,
                            "model", r.get(3),
                            "sf", r.get(12),
                            "ours", r.get(4),
                            "lo", r.get(5),
                            "hi", r.get(6),
                            "meanFp", r.get(13),
                            "plugin", r.get(14))));
            double gap = Double.parseDouble(r.get(4)) - Double.parseDouble(r.get(14));
            if (gap > worstGap) {
                worstGap = gap;
                worstN = n;
            }
        }
        String gap;
        if (worstN == 0) {
            gap = text.get("paper.reading.noGap").render();
        } else {
            List<String> w = phRow(ph, worstN, worstN);
            gap = text.get("paper.reading.gap")
                    .render(Map.of("n", worstN, "ours", w.get(4), "plugin", w.get(14), "meanFp", w.get(13)));
        }
        out.add(text.get("paper.reading.jensen").render(Map.of("gap", gap)));
        org.blockfilter.filters.bloom.Bip37Filter f20 = bitcoinjFilter(20);
        double pInt = paperFalsePositiveRate(40, capacity(20), Wallets.RATE_2014);
        double pCont = continuousFalsePositiveRate(40, capacity(20), Wallets.RATE_2014);
        Map<String, Object> sizing = new HashMap<>();
        sizing.put("capacity", capacity(20));
        sizing.put("bytes", f20.sizeBytes());
        sizing.put("funcs", f20.hashFuncs());
        sizing.put("bits", sig(-capacity(20) * Math.log(Wallets.RATE_2014) / (Math.log(2) * Math.log(2))));
        sizing.put("k", fmt2(-Math.log(Wallets.RATE_2014) / Math.log(2)));
        sizing.put(
                "effect",
                text.get(pInt > pCont ? "paper.reading.sizing.raises" : "paper.reading.sizing.lowers")
                        .render());
        sizing.put("pInt", sig(pInt));
        sizing.put("pCont", sig(pCont));
        sizing.put("phInt", sig(Metrics.ph(20, pInt * universe, 20)));
        sizing.put("universe", Lab.count(universe));
        sizing.put("phCont", sig(Metrics.ph(20, pCont * universe, 20)));
        out.add(text.get("paper.reading.sizing").render(sizing));
        double maxRel = 0;
        for (int n : PAPER_NS) {
            List<String> r = phRow(ph, n, n);
            double sf = Double.parseDouble(r.get(12));
            if (sf > 0) {
                maxRel = Math.max(maxRel, Math.abs(Double.parseDouble(r.get(13)) / sf - 1));
            }
        }
        out.add(text.get(maxRel < 0.1 ? "paper.reading.density.same" : "paper.reading.density.differs")
                .render(Map.of("percent", String.format(Locale.ROOT, "%.0f", 100 * maxRel))));
        return String.join(" ", out);
    }
}
