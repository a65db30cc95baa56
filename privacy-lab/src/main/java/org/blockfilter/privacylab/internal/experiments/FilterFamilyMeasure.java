package org.blockfilter.privacylab.internal.experiments;

import static org.blockfilter.privacylab.internal.experiments.FilterFamilyExperiment.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.gcs.SipHash;
import org.blockfilter.privacylab.internal.filters.QuotientFilter;
import org.blockfilter.privacylab.internal.filters.RibbonFilter;
import org.blockfilter.privacylab.internal.report.Progress;
import org.fastfilter.Filter;
import org.fastfilter.bloom.BlockedBloom;
import org.fastfilter.bloom.Bloom;
import org.fastfilter.bloom.count.CountingBloom;
import org.fastfilter.cuckoo.Cuckoo16;
import org.fastfilter.cuckoo.Cuckoo8;
import org.fastfilter.cuckoo.CuckooPlus16;
import org.fastfilter.cuckoo.CuckooPlus8;
import org.fastfilter.utils.Hash;
import org.fastfilter.xor.Xor16;
import org.fastfilter.xor.Xor8;
import org.fastfilter.xor.XorFuse8;
import org.fastfilter.xorplus.XorPlus8;

/**
 * Experiment 7's measurements: every family's filter built at each target rate, its allocated bits and its false
 * positives over random non-member queries, and the formulas each is checked against. Stateless.
 */
final class FilterFamilyMeasure {
    private FilterFamilyMeasure() {}

    /** Every family's rows for {@code n} elements. */
    static List<Row> measure(Lab lab, int n) {
        SplittableRandom keyRnd = new SplittableRandom(lab.seed("exp7/keys", n));
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = keyRnd.nextLong();
        }
        List<Row> rows = new ArrayList<>();
        Progress progress = new Progress(lab.log(), "exp7 n=" + n, 6L * TARGETS.length + 8);
        for (double eps : TARGETS) {
            double bpk = -Math.log(eps) / (LN2 * LN2);
            int k = bloomK(bpk);
            rows.add(fast(
                    lab,
                    n,
                    "Bloom",
                    "FastFilter Bloom",
                    eps,
                    String.format(Locale.ROOT, "m/n=%.3f k=%d", bpk, k),
                    () -> Bloom.construct(keys, bpk),
                    f -> bloomRate(k, f.getBitCount(), n),
                    "(1-e^{-kn/m})^k",
                    keys));
            progress.add(1);
            rows.add(fast(
                    lab,
                    n,
                    "counting Bloom",
                    "FastFilter CountingBloom (4-bit counters)",
                    eps,
                    String.format(Locale.ROOT, "counters/n=%.3f k=%d", bpk, k),
                    () -> CountingBloom.construct(keys, bpk),
                    f -> bloomRate(k, f.getBitCount() / 4, n),
                    "(1-e^{-kn/c})^k, c = bits/4 counters",
                    keys));
            progress.add(1);
            int whole = (int) Math.ceil(bpk);
            rows.add(fast(
                    lab,
                    n,
                    "blocked Bloom",
                    "FastFilter BlockedBloom",
                    eps,
                    "bits/n=" + whole + " (2+2 bits in two 64-bit words)",
                    () -> BlockedBloom.construct(keys, whole),
                    f -> Double.NaN,
                    "none checked",
                    keys));
            progress.add(1);
        }
        for (double eps : TARGETS) {
            rows.add(gcs(lab, n, eps));
            progress.add(1);
        }
        rows.add(fast(
                lab,
                n,
                "cuckoo",
                "FastFilter Cuckoo8",
                Double.NaN,
                "f=8 b=4",
                () -> Cuckoo8.construct(keys),
                f -> cuckooRate(8, f.getBitCount(), n),
                "1-(1-2^-f)^{2b*load} (Fan et al.)",
                keys));
        rows.add(fast(
                lab,
                n,
                "cuckoo",
                "FastFilter Cuckoo16",
                Double.NaN,
                "f=16 b=4",
                () -> Cuckoo16.construct(keys),
                f -> cuckooRate(16, f.getBitCount(), n),
                "1-(1-2^-f)^{2b*load} (Fan et al.)",
                keys));
        rows.add(fast(
                lab,
                n,
                "cuckoo+ (semi-sorted)",
                "FastFilter CuckooPlus8",
                Double.NaN,
                "f=8",
                () -> CuckooPlus8.construct(keys),
                f -> Double.NaN,
                "none checked",
                keys));
        rows.add(fast(
                lab,
                n,
                "cuckoo+ (semi-sorted)",
                "FastFilter CuckooPlus16",
                Double.NaN,
                "f=16",
                () -> CuckooPlus16.construct(keys),
                f -> Double.NaN,
                "none checked",
                keys));
        rows.add(fast(
                lab,
                n,
                "xor",
                "FastFilter Xor8",
                Double.NaN,
                "f=8",
                () -> Xor8.construct(keys),
                f -> 1.0 / 256,
                "2^-f (Graf and Lemire 2020)",
                keys));
        rows.add(fast(
                lab,
                n,
                "xor",
                "FastFilter Xor16",
                Double.NaN,
                "f=16",
                () -> Xor16.construct(keys),
                f -> 1.0 / 65536,
                "2^-f (Graf and Lemire 2020)",
                keys));
        rows.add(fast(
                lab,
                n,
                "xor+ / fuse",
                "FastFilter XorPlus8",
                Double.NaN,
                "f=8",
                () -> XorPlus8.construct(keys),
                f -> 1.0 / 256,
                "2^-f",
                keys));
        rows.add(fast(
                lab,
                n,
                "xor+ / fuse",
                "FastFilter XorFuse8",
                Double.NaN,
                "f=8",
                () -> XorFuse8.construct(keys),
                f -> 1.0 / 256,
                "2^-f",
                keys));
        progress.add(8);
        for (double eps : TARGETS) {
            rows.add(quotient(lab, n, eps, keys));
            progress.add(1);
        }
        for (double eps : TARGETS) {
            rows.add(ribbon(lab, n, eps, keys));
            progress.add(1);
        }
        for (double eps : TARGETS) {
            rows.add(new Row(
                    "bound",
                    "information-theoretic bound",
                    "log2(1/eps)",
                    eps,
                    n,
                    n * log2(1 / eps),
                    0,
                    0,
                    eps,
                    "log2(1/eps) bits per element",
                    0));
        }
        return rows;
    }

    /** Queries for a cell at nominal rate {@code rate}. */
    static long queries(Lab lab, double rate, int n) {
        double want = (lab.quick() ? 20 : 200) / rate;
        long lo = lab.quick() ? 100_000 : 1_000_000;
        long hi = lab.quick() ? 1_000_000 : n > LARGE_N_FROM ? 10_000_000 : 100_000_000;
        return Math.max(lo, Math.min(hi, (long) Math.ceil(want)));
    }

    static Row fast(
            Lab lab,
            int n,
            String family,
            String impl,
            double target,
            String params,
            java.util.function.Supplier<Filter> build,
            java.util.function.ToDoubleFunction<Filter> formula,
            String formulaName,
            long[] keys) {
        long t0 = System.nanoTime();
        Hash.setSeed(lab.seed("exp7/fastfilter/" + impl, n, Double.doubleToLongBits(target)));
        Filter f = build.get();
        for (long key : keys) {
            if (!f.mayContain(key)) {
                throw new IllegalStateException(impl + " lost an inserted key");
            }
        }
        double rate = formula.applyAsDouble(f);
        long q = queries(lab, Double.isNaN(target) ? rate : target, n);
        SplittableRandom rnd =
                new SplittableRandom(lab.seed("exp7/queries/" + impl, n, Double.doubleToLongBits(target)));
        long fp = count(q, rnd, f::mayContain);
        return new Row(
                family,
                impl,
                params,
                target,
                n,
                f.getBitCount(),
                q,
                fp,
                rate,
                formulaName,
                (System.nanoTime() - t0) / 1e9);
    }

    /**
     * The hand-written {@link QuotientFilter} sized for {@code eps}: q from {@link #QUOTIENT_MAX_LOAD}, r the smallest
     * with 1 - e^(-alpha/2^r) <= eps. Its own seeded streams, so the other rows do not move.
     */
    static Row quotient(Lab lab, int n, double eps, long[] keys) {
        long t0 = System.nanoTime();
        long tag = Double.doubleToLongBits(eps);
        QuotientFilter f = QuotientFilter.forRate(n, eps, QUOTIENT_MAX_LOAD, lab.seed("exp7/quotient", n, tag));
        for (long key : keys) {
            f.add(key);
        }
        for (long key : keys) {
            if (!f.mayContain(key)) {
                throw new IllegalStateException("quotient filter lost an inserted key");
            }
        }
        double alpha = (double) n / (1L << f.quotientBits());
        long q = queries(lab, eps, n);
        long fp = count(q, new SplittableRandom(lab.seed("exp7/queries/quotient", n, tag)), f::mayContain);
        return new Row(
                "quotient",
                "QuotientFilter, written here",
                String.format(Locale.ROOT, "q=%d r=%d load=%.3f", f.quotientBits(), f.remainderBits(), alpha),
                eps,
                n,
                f.bitCount(),
                q,
                fp,
                QuotientFilter.expectedRate(alpha, f.remainderBits()),
                "1-e^{-alpha/2^r} (Bender et al. 2012)",
                (System.nanoTime() - t0) / 1e9);
    }

    /**
     * The hand-written standard {@link RibbonFilter} (w = 64) for {@code eps}: r = ceil(log2(1/eps)) result bits, m =
     * (1 + {@link #RIBBON_OVERHEAD}) n slots; the seeds it took are in the parameters column.
     */
    static Row ribbon(Lab lab, int n, double eps, long[] keys) {
        long t0 = System.nanoTime();
        long tag = Double.doubleToLongBits(eps);
        int r = ribbonBits(eps);
        RibbonFilter f =
                RibbonFilter.build(keys, r, RIBBON_OVERHEAD, lab.seed("exp7/ribbon", n, tag), RIBBON_MAX_ATTEMPTS);
        for (long key : keys) {
            if (!f.mayContain(key)) {
                throw new IllegalStateException("ribbon filter lost an inserted key");
            }
        }
        long q = queries(lab, eps, n);
        long fp = count(q, new SplittableRandom(lab.seed("exp7/queries/ribbon", n, tag)), f::mayContain);
        return new Row(
                "ribbon",
                "RibbonFilter, written here (standard, w=64)",
                String.format(
                        Locale.ROOT,
                        "r=%d m=%d (1+%.3f)n seeds tried=%d",
                        r,
                        f.slots(),
                        (double) f.slots() / n - 1,
                        f.attempts()),
                eps,
                n,
                f.bitCount(),
                q,
                fp,
                Math.pow(2, -r),
                "2^-r (Dillinger and Walzer 2021)",
                (System.nanoTime() - t0) / 1e9);
    }

    /** The quotient filter's load n/2^q for {@code n} keys under {@link #QUOTIENT_MAX_LOAD}. */
    static double quotientLoad(int n) {
        long slots = 2;
        while ((double) n / slots > QUOTIENT_MAX_LOAD) {
            slots <<= 1;
        }
        return (double) n / slots;
    }

    /** Result bits for a ribbon filter at rate at most {@code eps}: ceil(log2(1/eps)). */
    static int ribbonBits(double eps) {
        return (int) Math.ceil(log2(1 / eps) - 1e-9);
    }

    static long count(long queries, SplittableRandom rnd, LongPredicate matches) {
        long fp = 0;
        for (long i = 0; i < queries; i++) {
            if (matches.test(rnd.nextLong())) {
                fp++;
            }
        }
        return fp;
    }

    /** The {@code filters} module's Golomb-coded set at rate {@code eps}: M = round(1/eps), P from BIP 158's ratio. */
    static Row gcs(Lab lab, int n, double eps) {
        long t0 = System.nanoTime();
        long m = Math.round(1 / eps);
        int p = gcsP(m);
        SplittableRandom rnd = new SplittableRandom(lab.seed("exp7/gcs", n, m));
        List<byte[]> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] script = new byte[25];
            rnd.nextBytes(script);
            items.add(script);
        }
        byte[] key = new byte[Bip158.KEY_LENGTH];
        rnd.nextBytes(key);
        GolombCodedSet set = GolombCodedSet.build(p, m, key, items);
        long[] values = set.values();
        long distinct = Arrays.stream(values).distinct().count();
        long range = (long) set.size() * m;
        long k0 = SipHash.keyHalf(key, 0);
        long k1 = SipHash.keyHalf(key, 8);
        long q = queries(lab, eps, n);
        byte[] probe = new byte[25];
        long fp = 0;
        for (long i = 0; i < q; i++) {
            rnd.nextBytes(probe);
            long v = GolombCodedSet.hashToRange(SipHash.hash24(k0, k1, probe, 0, probe.length), range);
            if (Arrays.binarySearch(values, v) >= 0) {
                fp++;
            }
        }
        return new Row(
                "GCS",
                "filters GolombCodedSet" + (m == Bip158.BASIC_M ? " (BIP 158)" : ""),
                "P=" + p + " M=" + m,
                eps,
                n,
                8.0 * set.encodedLength(),
                q,
                fp,
                (double) distinct / range,
                "exact: distinct values / (N*M)",
                (System.nanoTime() - t0) / 1e9);
    }

    /** P for inverse rate {@code m}: round(log2(m / 1.4971)), BIP 158's ratio (P = 19 at M = 784,931). */
    static int gcsP(long m) {
        return Math.max(1, (int) Math.round(log2(m / GCS_M_OVER_2P)));
    }

    /** FastFilter's choice of k for a Bloom filter of {@code bitsPerKey}. */
    static int bloomK(double bitsPerKey) {
        return Math.max(1, (int) Math.round(bitsPerKey * LN2));
    }

    /** The Bloom formula (1 - e^{-kn/m})^k. */
    static double bloomRate(int k, long m, int n) {
        return Math.pow(1 - Math.exp(-(double) k * n / m), k);
    }

    /** Fan et al.'s cuckoo filter rate for f-bit fingerprints in buckets of 4, at the measured load. */
    static double cuckooRate(int f, long bits, int n) {
        double load = (double) n * f / bits;
        return 1 - Math.pow(1 - Math.pow(2, -f), 2 * 4 * load);
    }
}
