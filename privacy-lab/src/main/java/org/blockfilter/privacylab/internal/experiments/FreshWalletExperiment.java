package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.blockfilter.privacylab.internal.chains.Subject;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.privacylab.internal.filters.FastBloom;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Plot;
import org.blockfilter.privacylab.internal.report.Report;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.privacylab.internal.universe.UniverseScan;

/**
 * Experiment 4: the filter a freshly created bitcoinj wallet actually sends, 0.12-era and today: keys, size, hash
 * functions, effective false-positive rate, and the false positives it yields against 33M and 60M addresses.
 */
public final class FreshWalletExperiment {
    /** Where scans that found no false positive are marked on the log axis. */
    static final double ZERO_AT = 1e-3;

    private FreshWalletExperiment() {}

    public static void run(Lab lab) {
        Path dir = lab.dir("exp4-fresh-wallet");
        int tweaks = lab.quick() ? 2 : 5;
        long small = lab.universe();
        long large = lab.largeUniverse();
        Wallets.Model[] models = Wallets.Model.values();
        double[] rates = {Wallets.RATE_2014, Wallets.RATE_2014, Wallets.RATE_TODAY};
        // a pre-HD wallet was created with one key; an HD wallet issues none until asked
        int[] used = {1, 0, 0};

        List<Subject> subjects = new ArrayList<>();
        for (int m = 0; m < models.length; m++) {
            Wallets.Client client = Wallets.client(models[m], lab.seed("exp4/client", m));
            List<byte[]> hashes = client.growTo(used[m]);
            for (int t = 0; t < tweaks; t++) {
                subjects.add(
                        Subject.of(client.filter(rates[m], lab.tweak("exp4", m, t)), client.elementCount(), hashes));
            }
        }
        List<FastBloom> fast = subjects.stream().map(Subject::fast).toList();
        UniverseScan.Histogram hSmall =
                lab.scanAll("exp4 " + Lab.count(small), small, fast, false).get(0);
        UniverseScan.Histogram hLarge =
                lab.scanAll("exp4 " + Lab.count(large), large, fast, false).get(0);

        Csv raw = new Csv(
                "model",
                "tweak_index",
                "keys_in_filter",
                "elements",
                "filter_bytes",
                "hash_funcs",
                "bit_density",
                "fp_" + small,
                "fp_" + large);
        Csv summary = new Csv(
                "model",
                "used_addresses",
                "keys_in_filter",
                "elements",
                "capacity",
                "filter_bytes",
                "hash_funcs",
                "target_rate",
                "model_rate",
                "density_rate",
                "measured_rate",
                "expected_fp_" + small,
                "measured_fp_" + small,
                "expected_fp_" + large,
                "measured_fp_" + large,
                "expected_fp_pubkey_and_hash_" + small);
        for (int m = 0; m < models.length; m++) {
            List<Double> fpS = new ArrayList<>();
            List<Double> fpL = new ArrayList<>();
            List<Double> dRate = new ArrayList<>();
            List<Double> mRate = new ArrayList<>();
            Subject first = subjects.get(m * tweaks);
            for (int t = 0; t < tweaks; t++) {
                int i = m * tweaks + t;
                Subject s = subjects.get(i);
                long a = hSmall.hashMatchesAll(i);
                long b = hLarge.hashMatchesAll(i);
                raw.row(
                        models[m].name(),
                        t,
                        s.elements() / 2,
                        s.elements(),
                        s.sizeBytes(),
                        s.hashFuncs(),
                        s.density(),
                        a,
                        b);
                fpS.add((double) a);
                fpL.add((double) b);
                dRate.add(s.densityRate());
                mRate.add(s.modelRate());
            }
            double rate = Stats.mean(mRate);
            summary.row(
                    models[m].name(),
                    used[m],
                    first.elements() / 2,
                    first.elements(),
                    first.elements() + Wallets.FILTER_MERGER_HEADROOM,
                    first.sizeBytes(),
                    first.hashFuncs(),
                    rates[m],
                    Stats.sig(rate, 3),
                    Stats.sig(Stats.mean(dRate), 3),
                    Stats.sig(Stats.mean(fpL) / large, 3),
                    Stats.sig(rate * small, 3),
                    Stats.sig(Stats.mean(fpS), 3),
                    Stats.sig(rate * large, 3),
                    Stats.sig(Stats.mean(fpL), 3),
                    Stats.sig(rate * rate * small, 2));
        }
        raw.write(dir.resolve("exp4_raw.csv"));
        summary.write(dir.resolve("exp4_summary.csv"));

        Plot plot = new Plot(
                        "False positives a fresh wallet's filter yields",
                        "addresses tested (universe)",
                        "false positives: measured (markers), expected (dashed)",
                        760)
                .logY()
                .legendBelow();
        for (int m = 0; m < models.length; m++) {
            List<String> row = summary.rows().get(m);
            List<Long> x = List.of(small, large);
            double[] measured = {Double.parseDouble(row.get(12)), Double.parseDouble(row.get(14))};
            List<Long> mx = new ArrayList<>();
            List<Double> my = new ArrayList<>();
            List<Long> zx = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                if (measured[i] > 0) {
                    mx.add(x.get(i));
                    my.add(measured[i]);
                } else {
                    zx.add(x.get(i));
                }
            }
            if (!mx.isEmpty()) {
                plot.measured(models[m].label() + " measured", mx, my, m);
            }
            plot.zeros(models[m].label() + ": 0 found in every scan (drawn at " + ZERO_AT + ")", zx, ZERO_AT, m);
            plot.model(
                    models[m].label() + " expected",
                    x,
                    List.of(Double.parseDouble(row.get(11)), Double.parseDouble(row.get(13))),
                    m);
        }
        plot.writePng(dir.resolve("exp4_fp.png"));

        List<String> y2014 = summary.rows().get(0);
        List<String> hd = summary.rows().get(1);
        List<String> today = summary.rows().get(2);
        Report rep = new Report(dir, "Experiment 4: what a fresh bitcoinj wallet sends");
        rep.paragraph(lab.regenerate("exp4"));
        rep.heading("Setup");
        rep.bullets(
                List.of(
                        "Y2014, " + Wallets.Model.Y2014.label()
                                + ": a basic key chain holding the one key a new pre-HD wallet started with; bitcoinj inserts its public key and hash; FilterMerger sizes the filter for elements + 100 = 102 at rate 0.0005. This is the wallet the paper (ACSAC 2014) measured; it is NOT what bitcoinj 0.12 shipped.",
                        "HD_2014, " + Wallets.Model.HD_2014.label()
                                + ": bitcoinj 0.12 (October 2014) made new wallets HD. Its DeterministicKeyChain has lookaheadSize = 100 and lookaheadThreshold = lookaheadSize / 3 = 33; maybeLookAhead derives issued + 100 + 33 - existing keys on the external and on the internal branch (133 each on a new wallet), and the filter holds the pubkey and the hash of every key of the chain's basic key chain (numBloomFilterEntries = numKeys x 2): the root, account and two branch keys plus 266 leaves = 270 keys, 540 elements, sized for 640 at the 0.0005 rate (read from bitcoinj's 0.12-era DeterministicKeyChain source). Built here with bitcoinj 0.17's one-chain P2PKH wallet, whose lookahead rule and filter contents are the same; the key count is checked by a test.",
                        "TODAY, " + Wallets.Model.TODAY.label()
                                + ": a new bitcoinj 0.17 wallet from `KeyChainGroup.fromSeed(seed, P2WPKH)`, which holds TWO deterministic chains, the P2WPKH chain and a fallback P2PKH chain from the same seed; both have the default lookahead and both go into the filter (540 keys, 1080 elements); rate 1e-5.",
                        String.format(
                                Locale.ROOT,
                                "Each filter built with %d different tweaks and scanned against %s and %s other addresses%s (seed %d).",
                                tweaks,
                                Lab.count(small),
                                Lab.count(large),
                                lab.quick() ? " (QUICK mode)" : "",
                                lab.seed()),
                        "model_rate: (1 - e^{-kn/m})^k for the real m, k, n; density_rate: (fraction of set bits)^k of the actual filter; measured_rate: false positives / addresses tested. expected_fp_pubkey_and_hash: the false positives left when the adversary counts an address only if BOTH its public key and its hash match (possible for addresses whose public key is on the chain, i.e. that have spent): model_rate^2 x addresses, since the two elements hash to independent positions (experiment 3 measures this)."));
        rep.heading("Results");
        rep.table(summary);
        rep.image("exp4_fp.png", "false positives vs universe size");
        rep.heading("Reading");
        rep.paragraph(String.format(
                Locale.ROOT,
                "The pre-HD fresh wallet sends a %s-byte filter with %s hash functions that holds %s elements although it is sized for %s: "
                        + "its effective rate is %s instead of the 0.0005 target, so about %s false positives among %s addresses and its one address is exposed. "
                        + "bitcoinj 0.12's HD wallet is different: %s keys (%s elements) in %s bytes with %s functions, close to capacity, effective rate %s, "
                        + "so about %s false positives among %s addresses by hash alone. Today's wallet sends %s keys from two chains (%s elements) in %s bytes, effective rate %s, "
                        + "%s false positives among %s addresses (%s among %s) by hash alone. None of the lookahead keys is on the chain, so they are never candidates; "
                        + "what hides a real address is the false positives. An address that has not revealed its public key hides among those (hundreds for today's wallet, thousands for 0.12's); "
                        + "one whose public key is on the chain (it has spent) must match twice, and the expected false positives of that test are %s (0.12 HD) and %s (today) among %s addresses: "
                        + "such an address stands out alone.",
                y2014.get(5),
                y2014.get(6),
                y2014.get(3),
                y2014.get(4),
                y2014.get(8),
                y2014.get(12),
                Lab.count(small),
                hd.get(2),
                hd.get(3),
                hd.get(5),
                hd.get(6),
                hd.get(8),
                hd.get(12),
                Lab.count(small),
                today.get(2),
                today.get(3),
                today.get(5),
                today.get(8),
                today.get(12),
                Lab.count(small),
                today.get(14),
                Lab.count(large),
                Csv.format(Stats.sig(Double.parseDouble(hd.get(15)), 2)),
                Csv.format(Stats.sig(Double.parseDouble(today.get(15)), 2)),
                Lab.count(small)));
        rep.write();
    }
}
