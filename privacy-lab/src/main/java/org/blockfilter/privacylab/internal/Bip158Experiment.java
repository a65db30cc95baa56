package org.blockfilter.privacylab.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.bloom.BloomMath;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.gcs.SipHash;

/**
 * Experiment 5: BIP 158 instead of BIP 37. Wallets sync a synthetic chain with its real basic filters; an observer
 * sees the blocks they download ({@link BlockSetAdversary}). P_h(1) and bandwidth per wallet size, number of peers
 * and decoy downloads, beside BIP 37's; what a re-sync and the start height leak.
 */
public final class Bip158Experiment {
    static final int[] PEERS = {1, 2, 4, 8};
    static final int[] DECOYS = {0, 1, 3, 10};
    /** Mainnet height at the time of writing, for the start-height note. */
    static final int MAINNET_HEIGHT = 870_000;
    /** BIP 37 merkleblock: 80-byte header, tx count, a few hashes and flags. */
    static final int MERKLEBLOCK_BYTES = 150;
    /** Values drawn below this on log axes. */
    static final double FLOOR = 1e-7;

    private Bip158Experiment() {}

    static SyntheticChain.Params params(boolean quick) {
        return quick
                ? new SyntheticChain.Params(300, 100, 800, 0.25, 20_000, new int[] {1, 10}, 4, 250)
                : new SyntheticChain.Params(4000, 200, 4000, 0.25, 300_000, new int[] {1, 10, 100}, 40, 250);
    }

    /** One wallet's sync: blocks downloaded (matched), its own blocks, and the false positives. */
    record Sync(SyntheticChain.Wallet wallet, int index, int[] matched, int[] own, int[] falsePositives) {}

    static Sync sync(SyntheticChain chain, int index, int from) {
        SyntheticChain.Wallet w = chain.wallets().get(index);
        int[] matched = chain.sync(w, from);
        int[] own = chain.ownBlocks(w);
        for (int b : own) {
            if (Arrays.binarySearch(matched, b) < 0) {
                throw new IllegalStateException("false negative: wallet " + index + " block " + b);
            }
        }
        int[] fp = Arrays.stream(matched)
                .filter(b -> Arrays.binarySearch(own, b) < 0)
                .toArray();
        return new Sync(w, index, matched, own, fp);
    }

    /** The downloads with {@code decoys} random extra blocks in [from, tip) per real one (fewer if the range runs out). */
    static int[] withDecoys(SyntheticChain chain, int[] matched, int from, int decoys, SplittableRandom rnd) {
        boolean[] in = new boolean[chain.blocks()];
        for (int b : matched) {
            in[b] = true;
        }
        int free = chain.blocks() - from - matched.length;
        int want = Math.min(free, decoys * matched.length);
        for (int added = 0; added < want; ) {
            int b = from + rnd.nextInt(chain.blocks() - from);
            if (!in[b]) {
                in[b] = true;
                added++;
            }
        }
        return java.util.stream.IntStream.range(0, chain.blocks())
                .filter(b -> in[b])
                .toArray();
    }

    /** Which downloads peer 0 sees when each goes to one of {@code peers} at random. */
    static boolean[] observed(SyntheticChain chain, int[] downloads, int peers, SplittableRandom rnd) {
        boolean[] seen = new boolean[chain.blocks()];
        for (int b : downloads) {
            if (rnd.nextInt(peers) == 0) {
                seen[b] = true;
            }
        }
        return seen;
    }

    static BlockSetAdversary.Guess guess(SyntheticChain chain, SyntheticChain.Wallet w, boolean[] observed) {
        return BlockSetAdversary.guess(
                chain.fresh,
                chain.explicitInBlock,
                chain.blocksOf,
                observed,
                w.firstAddress(),
                w.firstAddress() + w.n());
    }

    static long blockBytes(SyntheticChain chain, int[] downloads) {
        long sum = 0;
        for (int b : downloads) {
            sum += chain.blockBytes(b);
        }
        return sum;
    }

    public static void run(Lab lab) {
        Path dir = lab.dir("exp5-bip158");
        SyntheticChain.Params p = params(lab.quick());
        long t0 = System.nanoTime();
        SyntheticChain chain = SyntheticChain.build(
                p, lab.seed("exp5/chain"), new Progress(lab.log(), "exp5: build chain + real filters,", p.blocks()));
        lab.log().printf("exp5: chain of %d blocks built in %.1f s%n", p.blocks(), (System.nanoTime() - t0) / 1e9);

        Csv fpRate = measureFalsePositiveRate(chain, lab.quick() ? 2_000 : 10_000, lab.seed("exp5/probes"));

        List<Sync> syncs = new ArrayList<>();
        Progress sp = new Progress(
                lab.log(),
                "exp5: wallet syncs (matchAny over every filter),",
                chain.wallets().size());
        for (int i = 0; i < chain.wallets().size(); i++) {
            syncs.add(sync(chain, i, chain.wallets().get(i).birth()));
            sp.add(1);
        }
        long trials = 0;
        long fpBlocks = 0;
        for (Sync s : syncs) {
            trials += (long) (chain.blocks() - s.wallet().birth()) * s.wallet().n();
            fpBlocks += s.falsePositives().length;
        }
        fpRate.row(
                "wallet syncs: false-positive blocks per (watched script x synced block)",
                trials,
                fpBlocks,
                (double) fpBlocks / trials,
                1.0 / Bip158.BASIC_M,
                fpBlocks == 0 ? Double.NaN : (double) trials / fpBlocks);
        fpRate.write(dir.resolve("exp5_fp_rate.csv"));

        Csv raw = new Csv(
                "wallet",
                "N",
                "birth",
                "synced_blocks",
                "own_blocks",
                "fp_blocks",
                "peers",
                "decoys",
                "downloads",
                "observed",
                "filter_bytes",
                "block_bytes",
                "total_bytes",
                "candidates",
                "real",
                "ph1",
                "any_candidates",
                "any_real",
                "any_ph1");
        for (Sync s : syncs) {
            SyntheticChain.Wallet w = s.wallet();
            long filterBytes = chain.filterBytes(w.birth());
            for (int k : PEERS) {
                for (int d : DECOYS) {
                    SplittableRandom rnd = new SplittableRandom(lab.seed("exp5/observe", s.index(), k, d));
                    int[] downloads = withDecoys(chain, s.matched(), w.birth(), d, rnd);
                    boolean[] seen = observed(chain, downloads, k, rnd);
                    BlockSetAdversary.Guess g = guess(chain, w, seen);
                    long bb = blockBytes(chain, downloads);
                    int nSeen = 0;
                    for (boolean x : seen) {
                        nSeen += x ? 1 : 0;
                    }
                    raw.row(
                            s.index(),
                            w.n(),
                            w.birth(),
                            chain.blocks() - w.birth(),
                            s.own().length,
                            s.falsePositives().length,
                            k,
                            d,
                            downloads.length,
                            nSeen,
                            filterBytes,
                            bb,
                            filterBytes + bb,
                            g.candidates(),
                            g.real(),
                            g.ph1(),
                            g.anyCandidates(),
                            g.anyReal(),
                            g.anyPh1());
                }
            }
        }
        raw.write(dir.resolve("exp5_raw.csv"));
        Csv summary = summarise(raw, chain);
        summary.write(dir.resolve("exp5_summary.csv"));

        Csv bip37 = bip37(lab, chain, syncs, p);
        bip37.write(dir.resolve("exp5_bip37.csv"));
        Csv resync = resync(lab, chain, syncs);
        resync.write(dir.resolve("exp5_resync.csv"));
        Csv start = startHeight(chain, syncs);
        start.write(dir.resolve("exp5_start_height.csv"));

        List<String> plots = plots(dir, p, summary, bip37, resync);
        Bip158Report.write(lab, dir, chain, fpRate, summary, bip37, resync, start, plots);
    }

    /** Probes random scripts that are in no block against every filter, through the filter's own values and hash. */
    static Csv measureFalsePositiveRate(SyntheticChain chain, int probesPerBlock, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long probes = 0;
        long hits = 0;
        for (int b = 0; b < chain.blocks(); b++) {
            GolombCodedSet f = chain.filter(b);
            long[] values = f.values();
            byte[] key = f.key();
            long k0 = SipHash.keyHalf(key, 0);
            long k1 = SipHash.keyHalf(key, 8);
            long range = (long) f.size() * f.m();
            for (int i = 0; i < probesPerBlock; i++) {
                byte[] s = SyntheticChain.script(rnd.nextLong(), -1 - rnd.nextInt(1 << 30));
                long v = GolombCodedSet.hashToRange(SipHash.hash24(k0, k1, s), range);
                if (Arrays.binarySearch(values, v) >= 0) {
                    hits++;
                }
                probes++;
            }
        }
        Csv csv =
                new Csv("measurement", "trials", "matches", "measured_rate", "bip158_rate_1_over_M", "measured_one_in");
        csv.row(
                "random non-member scripts against every block filter",
                probes,
                hits,
                (double) hits / probes,
                1.0 / Bip158.BASIC_M,
                hits == 0 ? Double.NaN : (double) probes / hits);
        return csv;
    }

    private static Csv summarise(Csv raw, SyntheticChain chain) {
        Map<String, List<List<String>>> groups = new LinkedHashMap<>();
        for (List<String> r : raw.rows()) {
            groups.computeIfAbsent(r.get(1) + "," + r.get(6) + "," + r.get(7), k -> new ArrayList<>())
                    .add(r);
        }
        Csv s = new Csv(
                "N",
                "peers",
                "decoys",
                "wallets",
                "mean_synced_blocks",
                "mean_own_blocks",
                "mean_fp_blocks",
                "expected_fp_blocks",
                "mean_downloads",
                "mean_observed",
                "mean_filter_MB",
                "mean_total_MB",
                "mean_candidates",
                "mean_ph1",
                "mean_any_ph1");
        for (Map.Entry<String, List<List<String>>> e : groups.entrySet()) {
            List<List<String>> rs = e.getValue();
            String[] key = e.getKey().split(",");
            int n = Integer.parseInt(key[0]);
            double synced = col(rs, 3);
            double expectedFp = synced * (1 - Math.pow(1 - 1.0 / Bip158.BASIC_M, n));
            s.row(
                    n,
                    Integer.parseInt(key[1]),
                    Integer.parseInt(key[2]),
                    rs.size(),
                    synced,
                    col(rs, 4),
                    col(rs, 5),
                    expectedFp,
                    col(rs, 8),
                    col(rs, 9),
                    col(rs, 10) / 1e6,
                    col(rs, 12) / 1e6,
                    col(rs, 13),
                    col(rs, 15),
                    col(rs, 18));
        }
        return s;
    }

    private static double col(List<List<String>> rows, int c) {
        return rows.stream()
                .mapToDouble(r -> Double.parseDouble(r.get(c)))
                .average()
                .orElse(Double.NaN);
    }

    /**
     * BIP 37 on the same axes. Analytic: the 2014 bitcoinj filter (2N + 100 capacity, 2N elements) at each target
     * rate against this chain's address universe; bandwidth = filter + a merkleblock per synced block + one
     * transaction (2.5 elements' bytes) per matched element. Measured: experiment 1's 2014 summary (33M universe),
     * when it is present in the output directory.
     */
    private static Csv bip37(Lab lab, SyntheticChain chain, List<Sync> syncs, SyntheticChain.Params p) {
        Csv csv = new Csv(
                "source",
                "N",
                "target_rate",
                "filter_bytes",
                "hash_funcs",
                "fp_rate",
                "universe",
                "false_positives",
                "ph1",
                "total_MB");
        double txBytes = 2.5 * p.bytesPerElement();
        for (int n : p.walletSizes()) {
            List<Sync> ofN = syncs.stream().filter(s -> s.wallet().n() == n).toList();
            double synced = ofN.stream()
                    .mapToDouble(s -> chain.blocks() - s.wallet().birth())
                    .average()
                    .orElse(0);
            double own = ofN.stream().mapToDouble(s -> s.own().length).average().orElse(0);
            double universe = ofN.stream()
                    .mapToDouble(s -> chain.addressesFrom(s.wallet().birth()))
                    .average()
                    .orElse(0);
            double elements = ofN.stream()
                    .mapToDouble(s -> {
                        long e = 0;
                        for (int b = s.wallet().birth(); b < chain.blocks(); b++) {
                            e += chain.elements[b];
                        }
                        return e;
                    })
                    .average()
                    .orElse(0);
            for (double rate : SingleFilterExperiment.RATES) {
                int bytes = BloomMath.bip37SizeBytes(2L * n + 100, rate);
                int k = BloomMath.bip37HashFuncs(bytes, 2L * n + 100);
                double pf = BloomMath.falsePositiveRate(8L * bytes, k, 2L * n);
                double f = pf * (universe - n);
                double mb = (bytes + synced * MERKLEBLOCK_BYTES + (own + pf * elements) * txBytes) / 1e6;
                csv.row("analytic, this chain's universe", n, rate, bytes, k, pf, universe, f, n / (n + f), mb);
            }
            Path exp1 = lab.out().resolve("exp1-single-filter/exp1_summary.csv");
            if (Files.isRegularFile(exp1)) {
                try {
                    List<String> lines = Files.readAllLines(exp1);
                    for (String line : lines.subList(1, lines.size())) {
                        String[] c = line.split(",");
                        if (c[0].equals("Y2014") && Integer.parseInt(c[2]) == n) {
                            double fp = Double.parseDouble(c[6]);
                            double pf = fp / Lab.PAPER_UNIVERSE;
                            double mb = (Double.parseDouble(c[4])
                                            + synced * MERKLEBLOCK_BYTES
                                            + (own + pf * elements) * txBytes)
                                    / 1e6;
                            csv.row(
                                    "measured in exp1, 33M universe",
                                    n,
                                    Double.parseDouble(c[1]),
                                    Integer.parseInt(c[4]),
                                    Integer.parseInt(c[5]),
                                    pf,
                                    Lab.PAPER_UNIVERSE,
                                    fp,
                                    Double.parseDouble(c[10]),
                                    mb);
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return csv;
    }

    /**
     * Re-sync: the same wallet syncs twice over the same filters. The matched sets are compared, and an observer
     * intersects the two download sets when decoys are drawn afresh each time.
     */
    private static Csv resync(Lab lab, SyntheticChain chain, List<Sync> syncs) {
        Csv csv = new Csv(
                "N",
                "decoys",
                "wallets",
                "identical_matched_sets",
                "mean_fp_blocks",
                "mean_fp_in_both",
                "mean_ph1_one_sync",
                "mean_ph1_two_syncs_intersected",
                "mean_decoys_surviving",
                "bip37_fp_addresses_one_filter",
                "bip37_fp_addresses_two_tweaks");
        Map<Integer, List<Sync>> byN = new LinkedHashMap<>();
        syncs.forEach(
                s -> byN.computeIfAbsent(s.wallet().n(), k -> new ArrayList<>()).add(s));
        Map<Integer, Sync> again = new LinkedHashMap<>();
        syncs.forEach(
                s -> again.put(s.index(), sync(chain, s.index(), s.wallet().birth())));
        for (Map.Entry<Integer, List<Sync>> e : byN.entrySet()) {
            int n = e.getKey();
            for (int d : DECOYS) {
                int identical = 0;
                List<Double> fp = new ArrayList<>();
                List<Double> both = new ArrayList<>();
                List<Double> one = new ArrayList<>();
                List<Double> two = new ArrayList<>();
                List<Double> surviving = new ArrayList<>();
                List<Double> universe = new ArrayList<>();
                for (Sync s : e.getValue()) {
                    SyntheticChain.Wallet w = s.wallet();
                    Sync second = again.get(s.index());
                    if (Arrays.equals(s.matched(), second.matched())) {
                        identical++;
                    }
                    long common = Arrays.stream(second.falsePositives())
                            .filter(b -> Arrays.binarySearch(s.falsePositives(), b) >= 0)
                            .count();
                    fp.add((double) s.falsePositives().length);
                    both.add((double) common);
                    int[] d1 = withDecoys(
                            chain,
                            s.matched(),
                            w.birth(),
                            d,
                            new SplittableRandom(lab.seed("exp5/resync1", s.index(), d)));
                    int[] d2 = withDecoys(
                            chain,
                            second.matched(),
                            w.birth(),
                            d,
                            new SplittableRandom(lab.seed("exp5/resync2", s.index(), d)));
                    boolean[] seen1 = new boolean[chain.blocks()];
                    boolean[] seenBoth = new boolean[chain.blocks()];
                    for (int b : d1) {
                        seen1[b] = true;
                    }
                    int inBoth = 0;
                    for (int b : d2) {
                        if (seen1[b]) {
                            seenBoth[b] = true;
                            inBoth++;
                        }
                    }
                    one.add(guess(chain, w, seen1).ph1());
                    two.add(guess(chain, w, seenBoth).ph1());
                    surviving.add((double) (inBoth - s.matched().length));
                    universe.add((double) chain.addressesFrom(w.birth()));
                }
                int bytes = BloomMath.bip37SizeBytes(2L * n + 100, 5e-4);
                double pf =
                        BloomMath.falsePositiveRate(8L * bytes, BloomMath.bip37HashFuncs(bytes, 2L * n + 100), 2L * n);
                double u = Stats.mean(universe);
                csv.row(
                        n,
                        d,
                        e.getValue().size(),
                        identical,
                        Stats.mean(fp),
                        Stats.mean(both),
                        Stats.mean(one),
                        Stats.mean(two),
                        Stats.mean(surviving),
                        pf * u,
                        pf * pf * u);
            }
        }
        return csv;
    }

    /** Syncing from the wallet's birth (what reveals its age) against syncing from genesis (what hides it). */
    private static Csv startHeight(SyntheticChain chain, List<Sync> syncs) {
        Csv csv = new Csv(
                "N",
                "start",
                "wallets",
                "mean_start_height",
                "mean_synced_blocks",
                "mean_fp_blocks",
                "mean_total_MB",
                "mean_candidates",
                "mean_ph1");
        Map<Integer, List<Sync>> byN = new LinkedHashMap<>();
        syncs.forEach(
                s -> byN.computeIfAbsent(s.wallet().n(), k -> new ArrayList<>()).add(s));
        for (Map.Entry<Integer, List<Sync>> e : byN.entrySet()) {
            for (boolean genesis : new boolean[] {false, true}) {
                List<Double> h = new ArrayList<>();
                List<Double> synced = new ArrayList<>();
                List<Double> fp = new ArrayList<>();
                List<Double> mb = new ArrayList<>();
                List<Double> cand = new ArrayList<>();
                List<Double> ph = new ArrayList<>();
                for (Sync s0 : e.getValue()) {
                    int from = genesis ? 0 : s0.wallet().birth();
                    Sync s = genesis ? sync(chain, s0.index(), 0) : s0;
                    boolean[] seen = new boolean[chain.blocks()];
                    for (int b : s.matched()) {
                        seen[b] = true;
                    }
                    BlockSetAdversary.Guess g = guess(chain, s.wallet(), seen);
                    h.add((double) from);
                    synced.add((double) (chain.blocks() - from));
                    fp.add((double) s.falsePositives().length);
                    mb.add((chain.filterBytes(from) + blockBytes(chain, s.matched())) / 1e6);
                    cand.add((double) g.candidates());
                    ph.add(g.ph1());
                }
                csv.row(
                        e.getKey(),
                        genesis ? "genesis" : "birth",
                        e.getValue().size(),
                        Stats.mean(h),
                        Stats.mean(synced),
                        Stats.mean(fp),
                        Stats.mean(mb),
                        Stats.mean(cand),
                        Stats.mean(ph));
            }
        }
        return csv;
    }

    private static List<String> plots(Path dir, SyntheticChain.Params p, Csv summary, Csv bip37, Csv resync) {
        List<String> files = new ArrayList<>();
        for (int n : p.walletSizes()) {
            Plot plot = new Plot(
                            "Privacy vs bandwidth, wallets of N = " + n + " addresses",
                            "bandwidth: filters + blocks (BIP 158) or filter + merkleblocks + txs (BIP 37), MB",
                            "P_h(1), mean over wallets (below " + FLOOR + " drawn at " + FLOOR + ")")
                    .logX()
                    .logY();
            int g = 0;
            for (int k : PEERS) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (List<String> r : summary.rows()) {
                    if (Integer.parseInt(r.get(0)) == n && Integer.parseInt(r.get(1)) == k) {
                        x.add(Double.parseDouble(r.get(11)));
                        y.add(Math.max(FLOOR, Double.parseDouble(r.get(13))));
                    }
                }
                plot.measured(
                        "BIP 158, " + k + (k == 1 ? " peer" : " peers, observer = one") + ", decoys "
                                + Arrays.toString(DECOYS),
                        x,
                        y,
                        g++);
            }
            for (String source : List.of("analytic, this chain's universe", "measured in exp1, 33M universe")) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (List<String> r : bip37.rows()) {
                    if (r.get(0).equals(source) && Integer.parseInt(r.get(1)) == n) {
                        x.add(Double.parseDouble(r.get(9)));
                        y.add(Math.max(FLOOR, Double.parseDouble(r.get(8))));
                    }
                }
                if (!x.isEmpty()) {
                    plot.measured("BIP 37 2014 wallet, " + source + ", rates 1e-5..5e-3", x, y, g++);
                }
            }
            String f = "exp5_privacy_vs_bandwidth_n" + n + ".png";
            plot.writePng(dir.resolve(f));
            files.add(f);
        }
        Plot rs = new Plot(
                        "Re-sync with fresh random decoys: one sync vs two syncs intersected (one peer)",
                        "decoy blocks per real download",
                        "P_h(1) (below " + FLOOR + " drawn at " + FLOOR + ")")
                .logY();
        int g = 0;
        for (int n : p.walletSizes()) {
            List<Integer> x = new ArrayList<>();
            List<Double> one = new ArrayList<>();
            List<Double> two = new ArrayList<>();
            for (List<String> r : resync.rows()) {
                if (Integer.parseInt(r.get(0)) == n) {
                    x.add(Integer.parseInt(r.get(1)));
                    one.add(Math.max(FLOOR, Double.parseDouble(r.get(6))));
                    two.add(Math.max(FLOOR, Double.parseDouble(r.get(7))));
                }
            }
            rs.measured("N = " + n + ", one sync", x, one, g).model("N = " + n + ", two syncs intersected", x, two, g);
            g++;
        }
        rs.writePng(dir.resolve("exp5_resync.png"));
        files.add("exp5_resync.png");
        return files;
    }
}
