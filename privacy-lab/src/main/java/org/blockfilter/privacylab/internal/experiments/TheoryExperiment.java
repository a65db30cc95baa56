package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomMath;
import org.blockfilter.filters.bloom.UpdateFlag;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Template;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;

/**
 * Experiment 6: Bloom filter theory measured on bitcoinj's real filters, the worked 16-bit example, the space
 * comparison of BIP 158's Golomb-coded set, a Bloom filter at the same rate and the lower bound, and the seed
 * documents' results recomputed ({@link SeedResults}).
 */
public final class TheoryExperiment {
    static final int[] BITS_PER_ELEMENT = {4, 6, 8, 10, 12};
    static final int[] HASH_FUNCS = {2, 3, 4, 5, 6, 8};
    static final double[] TARGETS = {0.01, 0.001, 0.0001};
    private static final int BIP158_P = Bip158.BASIC_P;
    private static final long BIP158_M = Bip158.BASIC_M;

    private TheoryExperiment() {}

    public static void run(Lab lab) {
        Path dir = lab.dir("exp6-bloom-theory");
        int n = lab.quick() ? 400 : 2000;
        int probes = lab.quick() ? 20_000 : 1_000_000;
        AddressUniverse members = new AddressUniverse(lab.seed("exp6/members"));
        AddressUniverse others = new AddressUniverse(lab.seed("exp6/probes"));

        Csv grid = new Csv(
                "bits_per_element",
                "hash_funcs",
                "n",
                "filter_bytes",
                "probes",
                "false_positives",
                "measured_rate",
                "formula_rate",
                "measured_density",
                "formula_density");
        Plot plot = new Plot(
                        "False-positive rate of bitcoinj filters, n = " + n + ", " + Lab.count(probes) + " probes",
                        "bits per element m/n",
                        "false-positive rate")
                .logY();
        Progress progress = new Progress(lab.log(), "exp6 grid", (long) BITS_PER_ELEMENT.length * HASH_FUNCS.length);
        for (int g = 0; g < HASH_FUNCS.length; g++) {
            int k = HASH_FUNCS[g];
            List<Integer> xs = new ArrayList<>();
            List<Double> measured = new ArrayList<>();
            List<Double> formula = new ArrayList<>();
            for (int bpe : BITS_PER_ELEMENT) {
                int bytes = bpe * n / 8;
                BloomFilter f = Bip37Filter.of(bytes, k, lab.tweak("exp6", bpe, k), UpdateFlag.UPDATE_NONE)
                        .toBitcoinj();
                fill(f, members, n);
                long fp = countMatches(f, others, probes);
                double density = Bip37Filter.fromBitcoinj(f).bitDensity();
                double rate = BloomMath.falsePositiveRate(8L * bytes, k, n);
                grid.row(
                        bpe,
                        k,
                        n,
                        bytes,
                        probes,
                        fp,
                        (double) fp / probes,
                        rate,
                        density,
                        BloomMath.expectedBitDensity(8L * bytes, k, n));
                xs.add(bpe);
                measured.add(Math.max(0.5 / probes, (double) fp / probes));
                formula.add(rate);
                progress.add(1);
            }
            plot.measured("k=" + k + " measured", xs, measured, g).model("k=" + k + " formula", xs, formula, g);
        }
        grid.write(dir.resolve("exp6_grid.csv"));
        plot.writePng(dir.resolve("exp6_grid.png"));

        Csv targets = new Csv(
                "target_rate",
                "formula_bits_per_element",
                "optimal_k",
                "bitcoinj_filter_bytes",
                "bitcoinj_bits_per_element",
                "bitcoinj_hash_funcs",
                "measured_rate",
                "formula_rate_bitcoinj_params",
                "measured_density");
        for (double p : TARGETS) {
            BloomFilter f = new BloomFilter(
                    n, p, lab.tweak("exp6/target", (long) (1 / p)), BloomFilter.BloomUpdate.UPDATE_NONE);
            fill(f, members, n);
            Bip37Filter copy = Bip37Filter.fromBitcoinj(f);
            long fp = countMatches(f, others, probes);
            targets.row(
                    p,
                    BloomMath.bitsPerElement(p),
                    BloomMath.bitsPerElement(p) * Math.log(2),
                    copy.sizeBytes(),
                    8.0 * copy.sizeBytes() / n,
                    copy.hashFuncs(),
                    (double) fp / probes,
                    BloomMath.falsePositiveRate(8L * copy.sizeBytes(), copy.hashFuncs(), n),
                    copy.bitDensity());
        }
        targets.write(dir.resolve("exp6_targets.csv"));

        WorkedExample ex = new WorkedExample();
        Csv worked = new Csv("x", "h1", "h2", "h3", "inserted", "matches", "verdict");
        for (int x = 0; x < WorkedExample.M; x++) {
            int[] pos = WorkedExample.positions(x);
            boolean in = WorkedExample.INSERTED.contains(x);
            boolean match = ex.contains(x);
            worked.row(x, pos[0], pos[1], pos[2], in, match, in ? "member" : match ? "FALSE POSITIVE" : "negative");
        }
        worked.write(dir.resolve("exp6_worked_example.csv"));
        double exFormula = BloomMath.falsePositiveRate(WorkedExample.M, 3, 3);
        double exDensity = ex.setBits().size() / (double) WorkedExample.M;

        Csv space = new Csv("structure", "bits_per_element", "false_positive_rate", "source");
        double gcsMeasured = golombRiceBitsPerElement(lab.quick() ? 1000 : 7400, lab.seed("exp6/gcs"));
        double a = Math.pow(2, BIP158_P) / BIP158_M;
        double gcsFormula = BIP158_P + 1 + 1 / (Math.exp(a) - 1);
        double rate158 = 1.0 / BIP158_M;
        space.row("lower bound log2(1/p) = log2(M)", Math.log(BIP158_M) / Math.log(2), rate158, "formula");
        space.row("BIP 158 GCS (P=19, M=784931)", gcsFormula, rate158, "formula: P + 1 + 1/(e^{2^P/M} - 1)");
        space.row(
                "BIP 158 GCS (P=19, M=784931)",
                gcsMeasured,
                rate158,
                "measured: GolombCodedSet.build of random 25-byte scripts, 8 x encoded bytes / N");
        space.row(
                "Bloom filter at rate 1/M, optimal k",
                BloomMath.bitsPerElement(rate158),
                rate158,
                "formula: -ln p / (ln 2)^2");
        space.write(dir.resolve("exp6_space.csv"));

        Template.Sections text = Template.load("exp6.txt");
        Report rep = lab.report(dir, text, "exp6");
        rep.heading(text.get("grid.heading").render());
        rep.paragraph(text.get("grid")
                .render(Map.of("n", n, "probes", Lab.count(probes), "quickNote", lab.quick() ? " (QUICK mode)" : "")));
        rep.image("exp6_grid.png", "measured vs formula false-positive rate");
        rep.table(grid);
        rep.heading(text.get("targets.heading").render());
        rep.paragraph(text.get("targets").render(Map.of("n", n)));
        rep.table(targets);
        rep.heading(text.get("worked.heading").render());
        rep.paragraph(text.get("worked")
                .render(Map.of(
                        "setBits", ex.setBits(),
                        "setCount", ex.setBits().size(),
                        "density", fixed(4, exDensity),
                        "falsePositives", ex.falsePositives(),
                        "fpCount", ex.falsePositives().size(),
                        "measuredRate", fixed(4, ex.measuredRate()),
                        "formula", fixed(4, exFormula),
                        "densityRate", fixed(4, Math.pow(exDensity, 3)))));
        rep.table(worked);
        rep.heading(text.get("space.heading").render());
        rep.paragraph(text.get("space").render(Map.of("scripts", lab.quick() ? 1000 : 7400)));
        rep.table(space);
        double boundBits = Math.log(BIP158_M) / Math.log(2);
        double bloomBits = BloomMath.bitsPerElement(rate158);
        rep.paragraph(spaceReading(text, gcsMeasured, boundBits, bloomBits));
        Csv bloom1970 = SeedResults.bloomTable(lab);
        bloom1970.write(dir.resolve("exp6_bloom1970.csv"));
        Csv overflow = SeedResults.overflowTable();
        overflow.write(dir.resolve("exp6_counting_overflow.csv"));
        SeedResults.section(rep, text, bloom1970, overflow, SeedResults.probes(lab));
        rep.write();
    }

    /**
     * The space reading: the measured GCS against the lower bound and a Bloom filter at the same rate, the Bloom
     * filter's excess said only when the GCS is the smaller.
     */
    static String spaceReading(Template.Sections text, double gcsBits, double boundBits, double bloomBits) {
        Map<String, Object> v = new HashMap<>();
        v.put("gcsBits", fixed(2, gcsBits));
        v.put("gcsAbovePercent", fixed(1, 100 * (gcsBits / boundBits - 1)));
        v.put("boundBits", fixed(2, boundBits));
        v.put("bloomBits", fixed(2, bloomBits));
        if (bloomBits <= gcsBits) {
            return text.get("space.reading.gcsNotSmaller").render(v);
        }
        v.put("bloomAbovePercent", fixed(0, 100 * (bloomBits / gcsBits - 1)));
        return text.get("space.reading").render(v);
    }

    /** {@code x} with {@code digits} decimals, as {@code %.Nf} writes it. */
    private static String fixed(int digits, double x) {
        return String.format(Locale.ROOT, "%." + digits + "f", x);
    }

    private static void fill(BloomFilter f, AddressUniverse members, int n) {
        byte[] e = new byte[AddressUniverse.HASH_BYTES];
        for (int i = 0; i < n; i++) {
            members.hash160(i, e);
            f.insert(e.clone());
        }
    }

    private static long countMatches(BloomFilter f, AddressUniverse others, int probes) {
        byte[] e = new byte[AddressUniverse.HASH_BYTES];
        long fp = 0;
        for (int i = 0; i < probes; i++) {
            others.hash160(i, e);
            if (f.contains(e)) {
                fp++;
            }
        }
        return fp;
    }

    /** Bits per element of a real BIP 158 Golomb-coded set over {@code count} random 25-byte scripts. */
    static double golombRiceBitsPerElement(int count, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] script = new byte[25];
            rnd.nextBytes(script);
            items.add(script);
        }
        byte[] key = new byte[Bip158.KEY_LENGTH];
        rnd.nextBytes(key);
        GolombCodedSet gcs = GolombCodedSet.build(BIP158_P, BIP158_M, key, items);
        return 8.0 * gcs.encodedLength() / gcs.size();
    }
}
