package org.blockfilter.privacylab.internal.experiments;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;

/**
 * Two results the lab's seed documents state, recomputed beside the stated values: Bloom's 1970 hyphenation table
 * (method 2, the bit-array "Bloom filter": hash area and disk accesses avoided for allowed error 1/2 .. 1/32) and
 * the overflow probability of a counting Bloom filter's 4-bit counters (Fan et al. 2000). Stateless.
 */
final class SeedResults {
    /** Bloom's example: 500,000 words, of which 50,000 (10%) need the dictionary on disk and are stored. */
    static final int BLOOM_WORDS = 500_000;

    static final int BLOOM_STORED = 50_000;
    /** The seed's values: hash area in bits and share of disk accesses avoided, at P = 1/2 and 1/32 only. */
    static final double[] SEED_P = {1.0 / 2, 1.0 / 32};

    static final long[] SEED_BITS = {72_800, 364_000};
    static final double[] SEED_AVOIDED = {0.450, 0.872};
    /** The seed's overflow probability per counter for 4-bit counters (count 16 or more). */
    static final double SEED_OVERFLOW = 1.37e-15;

    private SeedResults() {}

    /**
     * The optimal hash area for {@code stored} elements at allowed error {@code p}: N = n log2(1/p) / ln 2 bits with
     * d = log2(1/p) hash functions (each bit set with probability 1/2 when full).
     */
    static double bloomBits(int stored, double p) {
        return stored * (Math.log(1 / p) / Math.log(2)) / Math.log(2);
    }

    /**
     * The share of disk accesses avoided: without the hash area every word goes to disk; with it, a word the rules
     * can hyphenate goes to disk only when it is a false positive: (words - stored) (1 - p) / words.
     */
    static double avoided(int words, int stored, double p) {
        return (double) (words - stored) * (1 - p) / words;
    }

    /**
     * A Bloom filter of {@code bits} bits and {@code k} hash functions (double hashing of a 64-bit mix) holding
     * {@code stored} random keys, probed with {@code probes} others: the measured false-positive rate.
     */
    static double measuredRate(long bits, int k, int stored, int probes, long seed) {
        BitSet b = new BitSet((int) bits);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < stored; i++) {
            long h = rnd.nextLong();
            for (int j = 0; j < k; j++) {
                b.set(position(h, j, bits));
            }
        }
        long fp = 0;
        for (int i = 0; i < probes; i++) {
            long h = rnd.nextLong();
            boolean all = true;
            for (int j = 0; j < k && all; j++) {
                all = b.get(position(h, j, bits));
            }
            fp += all ? 1 : 0;
        }
        return (double) fp / probes;
    }

    private static int position(long h, int j, long bits) {
        long a = AddressUniverse.mix(h);
        long c = AddressUniverse.mix(h ^ 0x9E3779B97F4A7C15L) | 1;
        return (int) Long.remainderUnsigned(a + j * c, bits);
    }

    /** Bloom's table, P = 1/2 .. 1/32: the seed's figures, the formula's and a measured filter's. */
    static Csv bloomTable(Lab lab) {
        Csv t = new Csv(
                "allowed_error_P",
                "hash_funcs_d",
                "seed_hash_area_bits",
                "formula_hash_area_bits",
                "seed_disk_accesses_avoided",
                "formula_disk_accesses_avoided",
                "measured_false_positive_rate",
                "measured_disk_accesses_avoided");
        int probes = probes(lab);
        for (int d = 1; d <= 5; d++) {
            double p = Math.pow(2, -d);
            double bits = bloomBits(BLOOM_STORED, p);
            double measured = measuredRate(Math.round(bits), d, BLOOM_STORED, probes, lab.seed("exp6/bloom1970", d));
            int seed = seedIndex(p);
            t.row(
                    "1/" + (1 << d),
                    d,
                    seed < 0 ? "" : Long.toString(SEED_BITS[seed]),
                    Math.round(bits),
                    seed < 0 ? "" : String.format(Locale.ROOT, "%.1f%%", 100 * SEED_AVOIDED[seed]),
                    String.format(Locale.ROOT, "%.1f%%", 100 * avoided(BLOOM_WORDS, BLOOM_STORED, p)),
                    Stats.sig(measured, 3),
                    String.format(
                            Locale.ROOT,
                            "%.1f%%",
                            100.0 * (BLOOM_WORDS - BLOOM_STORED) * (1 - measured) / BLOOM_WORDS));
        }
        return t;
    }

    /** The words probed against each measured filter: the 450,000 the rules handle (a tenth in quick mode). */
    static int probes(Lab lab) {
        return lab.quick() ? (BLOOM_WORDS - BLOOM_STORED) / 10 : BLOOM_WORDS - BLOOM_STORED;
    }

    private static String g3(double x) {
        return String.format(Locale.ROOT, "%.3g", x);
    }

    private static int seedIndex(double p) {
        for (int i = 0; i < SEED_P.length; i++) {
            if (SEED_P[i] == p) {
                return i;
            }
        }
        return -1;
    }

    /** Fan et al.'s bound on Pr(a counter reaches j) at the optimal k = (m/n) ln 2: (e ln 2 / j)^j. */
    static double fanBound(int j) {
        return Math.pow(Math.E * Math.log(2) / j, j);
    }

    /**
     * The exact Pr(count >= j) of one counter when nk = m ln 2 insertions each hit it with probability 1/m, as m grows
     * (the binomial's Poisson limit, mean ln 2): 1 - sum_{i<j} e^{-ln 2} (ln 2)^i / i!.
     */
    static double poissonTail(double mean, int j) {
        // Summed from j upwards (the terms fall fast), so no cancellation against 1.
        double term = Math.exp(-mean);
        for (int i = 1; i <= j; i++) {
            term *= mean / i;
        }
        double sum = 0;
        for (int i = j; i < j + 60; i++) {
            sum += term;
            term *= mean / (i + 1);
        }
        return sum;
    }

    /** The counter-overflow table: seed, Fan's bound and the exact tail, for 3- and 4-bit counters. */
    static Csv overflowTable() {
        Csv t = new Csv(
                "counter_bits",
                "overflow_at_count",
                "seed_probability_per_counter",
                "fan_bound_per_counter",
                "exact_poisson_tail_per_counter",
                "union_bound_1e9_counters");
        for (int bits : new int[] {3, 4}) {
            int j = 1 << bits;
            double exact = poissonTail(Math.log(2), j);
            t.row(
                    bits,
                    j,
                    bits == 4 ? g3(SEED_OVERFLOW) : "",
                    g3(fanBound(j)),
                    g3(exact),
                    g3(Math.min(1, 1e9 * exact)));
        }
        return t;
    }

    /** The report's section: both tables and what they say, every number from them. */
    static void section(Report rep, Template.Sections text, Csv bloom, Csv overflow, int probes) {
        rep.heading(text.get("seed.heading").render());
        Map<String, Object> b = new HashMap<>();
        b.put("words", Lab.count(BLOOM_WORDS));
        b.put("stored", Lab.count(BLOOM_STORED));
        b.put("storedPercent", String.format(Locale.ROOT, "%.0f", 100.0 * BLOOM_STORED / BLOOM_WORDS));
        b.put(
                "probes",
                probes < BLOOM_WORDS - BLOOM_STORED
                        ? text.get("seed.probes.quick")
                                .render(Map.of(
                                        "probes", Lab.count(probes), "rest", Lab.count(BLOOM_WORDS - BLOOM_STORED)))
                        : text.get("seed.probes.full").render(Map.of("probes", Lab.count(probes))));
        rep.paragraph(text.get("seed.bloom").render(b));
        rep.table(bloom);
        List<String> first = bloom.rows().get(0);
        List<String> last = bloom.rows().get(bloom.rows().size() - 1);
        double r1 = Double.parseDouble(first.get(2)) / Double.parseDouble(first.get(3)) - 1;
        double r5 = Double.parseDouble(last.get(2)) / Double.parseDouble(last.get(3)) - 1;
        Map<String, Object> a = new HashMap<>();
        a.put("avoidedFirst", first.get(5));
        a.put("avoidedLast", last.get(5));
        a.put("seedFirst", first.get(4));
        a.put("seedLast", last.get(4));
        a.put("aboveFirst", String.format(Locale.ROOT, "%.1f", 100 * r1));
        a.put("aboveLast", String.format(Locale.ROOT, "%.1f", 100 * r5));
        a.put("formulaFirst", first.get(3));
        a.put("formulaLast", last.get(3));
        a.put("seedBits", Lab.count(SEED_BITS[0]));
        a.put("ratio", Stats.sig((double) SEED_BITS[1] / SEED_BITS[0], 3));
        a.put("perWord", String.format(Locale.ROOT, "%.3f", (double) SEED_BITS[0] / BLOOM_STORED));
        a.put("lnConstant", String.format(Locale.ROOT, "%.4f", 1 / Math.log(2)));
        boolean agree = first.get(4).equals(first.get(5)) && last.get(4).equals(last.get(5));
        boolean above = r1 > 0 && r5 > 0;
        rep.paragraph(bloomAgreement(text, a, agree, above));
        rep.paragraph(text.get("seed.counting").render());
        rep.table(overflow);
        List<String> four = overflow.rows().get(overflow.rows().size() - 1);
        rep.paragraph(text.get("seed.overflow")
                .render(Map.of(
                        "bound",
                        four.get(3),
                        "seedBound",
                        four.get(2),
                        "exact",
                        four.get(4),
                        "times",
                        String.format(
                                Locale.ROOT, "%.0f", Double.parseDouble(four.get(3)) / Double.parseDouble(four.get(4))),
                        "billion",
                        four.get(5),
                        "threeBits",
                        threeBits(text, overflow.rows().get(0)))));
    }

    /**
     * The agreement paragraph from values {@code a}: whether the disk accesses avoided agree with the seed's
     * ({@code agree}) and whether both of the seed's hash areas are above the formula's ({@code above}).
     */
    static String bloomAgreement(Template.Sections text, Map<String, Object> a, boolean agree, boolean above) {
        Map<String, Object> avoided = new HashMap<>();
        Map<String, Object> areas = new HashMap<>(a);
        for (String k : List.of("avoidedFirst", "avoidedLast", "seedFirst", "seedLast")) {
            avoided.put(k, a.get(k));
            areas.remove(k);
        }
        return text.get("seed.bloomAgreement")
                .render(Map.of(
                        "avoided",
                                text.get(agree ? "seed.avoided.agree" : "seed.avoided.differ")
                                        .render(avoided),
                        "hashAreas",
                                text.get(above ? "seed.hashAreas.above" : "seed.hashAreas.notAbove")
                                        .render(areas)));
    }

    /**
     * The sentence on 3-bit counters from their overflow row: they "would not do" when a billion of them expect an
     * overflow (the exact tail times 10^9 is at least 1).
     */
    static String threeBits(Template.Sections text, List<String> row) {
        boolean fails = 1e9 * Double.parseDouble(row.get(4)) >= 1;
        return text.get(fails ? "seed.overflow.threeBitsFail" : "seed.overflow.threeBitsDo")
                .render(
                        fails
                                ? Map.of("threeBits", row.get(4))
                                : Map.of("threeBits", row.get(4), "billion", row.get(5)));
    }
}
