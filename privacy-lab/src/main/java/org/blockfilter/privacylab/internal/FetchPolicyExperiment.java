package org.blockfilter.privacylab.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.bitcoinj.crypto.MnemonicCode;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;

/**
 * Experiment 8: the real wallet's block-fetch policy, measured. Lab wallets (HD, P2WPKH, watch-only from their
 * account key) sync a {@link RealChain} built from a {@link MainnetLikeChain} with the wallet module's real
 * {@link SyncEngine} over k in-memory sources that log every filter and block request (which source, which height,
 * in what order, at what simulated time). Each wallet syncs twice (a second session: rescan from its birthday). The
 * exp5 adversaries then rank the chain's scripts from what source 0 saw: co-occurrence, + timing (blocks requested
 * outside the filter batch the observer last served are dropped), + the second session (intersection), the
 * transaction graph, and the uniform baseline. P_h(1) per wallet, mean with a 95% bootstrap interval per (N, sources,
 * policy), against the bandwidth the policy costs: the privacy/bandwidth frontier.
 */
public final class FetchPolicyExperiment {
    static final String DIR = "exp8-fetch-policy";

    /** A measured cell: k sources and a policy spec. */
    record Setting(int sources, String spec) {
        FetchPolicy policy() {
            return FetchPolicy.parse(spec);
        }

        boolean isDefault() {
            return policy().equals(FetchPolicy.DEFAULT);
        }

        String label() {
            return spec + (isDefault() ? " (default)" : "");
        }
    }

    /**
     * The measured grid, plus the default if the grid lacks it. The default is chosen from this
     * grid by the rule the report states, so the grid must not move with it: when the default
     * was in the list itself, changing it from decoys=2 to decoys=4 measured decoys=4 twice and
     * dropped decoys=2, the very point that shows the rule's choice.
     */
    static final List<String> SPECS = withDefault(List.of(
            "none",
            "spread,shuffle",
            "spread,decoys=1,shuffle",
            "spread,decoys=2,shuffle",
            "spread,decoys=4,shuffle",
            "spread,clusters=1,shuffle",
            "spread,clusters=2,shuffle",
            "spread,clusters=4,shuffle",
            "spread,decoys=4,clusters=2,shuffle"));

    private static List<String> withDefault(List<String> grid) {
        FetchPolicy def = FetchPolicy.parse(FetchPolicy.DEFAULT_SPEC);
        if (grid.stream().anyMatch(s -> FetchPolicy.parse(s).equals(def))) {
            return grid;
        }
        List<String> out = new ArrayList<>(grid);
        out.add(FetchPolicy.DEFAULT_SPEC);
        return List.copyOf(out);
    }

    static final int[] SOURCES = {1, 4};

    /** The adversaries, in report order (as exp5's, with 'sessions' for re-syncs). */
    static final List<String> ADVERSARIES = List.of(
            "uniform",
            "co-occurrence",
            "co-occurrence + timing",
            "co-occurrence + 2 sessions",
            "tx graph",
            "tx graph + timing + 2 sessions");

    private FetchPolicyExperiment() {}

    /** Every (sources, spec) but spread+shuffle at one source (it does nothing there: one source, one batch). */
    static List<Setting> settings() {
        List<Setting> out = new ArrayList<>();
        for (int k : SOURCES) {
            for (String s : SPECS) {
                if (k > 1 || !s.equals("spread,shuffle")) {
                    out.add(new Setting(k, s));
                }
            }
        }
        return out;
    }

    static MainnetLikeChain.Params params(boolean quick) {
        return quick
                ? new MainnetLikeChain.Params(
                        200, 150, 50, 5_000, 1.0, 100_000, new int[] {1, 10}, new int[] {8, 4}, 250)
                : new MainnetLikeChain.Params(
                        500, 200, 70, 20_000, 1.0, 100_000, new int[] {1, 10}, new int[] {100, 50}, 250);
    }

    /** A lab wallet's keys: a 12-word mnemonic from the lab seed, its P2WPKH account. */
    static HdAccount account(long seed) {
        byte[] entropy = new byte[16];
        new SplittableRandom(seed).nextBytes(entropy);
        List<String> words = MnemonicCode.INSTANCE.toMnemonic(entropy);
        WalletKeys keys = WalletKeys.fromMnemonic(
                words, "", RealChain.NETWORK, WalletKeys.DEFAULT_GAP_LIMIT, List.of(AddressKind.P2WPKH));
        return keys.account(AddressKind.P2WPKH).orElseThrow();
    }

    /** The chain, the real chain carrying the wallets' real scripts, and each wallet's account. */
    record World(MainnetLikeChain chain, RealChain real, HdAccount[] accounts) {}

    static World world(MainnetLikeChain chain, Lab lab, Progress progress) {
        HdAccount[] accounts = new HdAccount[chain.wallets().size()];
        Map<Integer, byte[]> walletKeys = new HashMap<>();
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            accounts[w.index()] = account(lab.seed("exp8/wallet", w.index()));
            for (int a = 0; a < w.n(); a++) {
                walletKeys.put(
                        w.firstScript() + a, accounts[w.index()].key(false, a).getPubKey());
            }
        }
        RealChain real = new RealChain(
                chain,
                id -> walletKeys.containsKey(id) ? walletKeys.get(id) : RealChain.pseudoPubKey(chain.seed, id),
                progress);
        return new World(chain, real, accounts);
    }

    /** One wallet's two sessions under one setting: what source 0 saw and what the whole network carried. */
    record Run(
            int matched,
            int downloads,
            int decoys,
            long blockBytes,
            int[] observed1,
            int[] observed1Timing,
            int[] observed2,
            int[] observed2Timing,
            boolean ownAllDownloaded) {}

    /** Syncs wallet {@code w} twice under {@code s}, in a fresh directory under {@code tmp}. */
    static Run run(World world, MainnetLikeChain.Wallet w, Setting s, Path tmp) {
        Path dir;
        try {
            dir = Files.createTempDirectory(tmp, "w" + w.index() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            LightWallet wallet = NewWallet.watchOnly(
                    dir.resolve("wallet.json"),
                    List.of(HdAccount.watchOnly(
                            world.accounts()[w.index()].extendedPublicKey(),
                            AddressKind.P2WPKH,
                            Chain.ofBitcoinj(RealChain.NETWORK).addressNetwork())),
                    null,
                    NewWallet.Options.of(Chain.ofBitcoinj(RealChain.NETWORK))
                            .withBirthday(LightWallet.Birthday.ofHeight(w.birth() + 1))
                            .withSealing(Sealing.NONE));
            RealChain.Log log1 = new RealChain.Log();
            SyncReport r1 = session(world, wallet, s, log1);
            wallet.rescanFrom(w.birth() + 1);
            RealChain.Log log2 = new RealChain.Log();
            session(world, wallet, s, log2);
            int[] own = world.chain().ownBlocks(w);
            TreeSet<Integer> all = new TreeSet<>();
            long bytes = 0;
            int downloads = 0;
            for (RealChain.Request q : log1.requests) {
                if (q.block()) {
                    downloads++;
                    all.add(q.from() - 1);
                    bytes += world.chain().blockBytes(q.from() - 1);
                }
            }
            boolean ownAll = Arrays.stream(own).allMatch(all::contains);
            return new Run(
                    r1.matchedBlocks(),
                    downloads,
                    r1.decoyBlocks(),
                    bytes,
                    observed(log1, "source-0", false),
                    observed(log1, "source-0", true),
                    observed(log2, "source-0", false),
                    observed(log2, "source-0", true),
                    ownAll);
        } finally {
            deleteTree(dir);
        }
    }

    private static SyncReport session(World world, LightWallet wallet, Setting s, RealChain.Log log) {
        List<ChainSource> sources = new ArrayList<>();
        for (int i = 0; i < s.sources(); i++) {
            sources.add(world.real().source("source-" + i, log));
        }
        return new SyncEngine(wallet, sources, null, s.policy(), log::pause).sync();
    }

    /**
     * The model blocks (height - 1) of the blocks {@code source} served; with {@code timing}, only those requested
     * while the filter batch it served last covered them (what an observer that also serves the filters keeps).
     */
    static int[] observed(RealChain.Log log, String source, boolean timing) {
        TreeSet<Integer> out = new TreeSet<>();
        int lo = -1;
        int hi = -1;
        for (RealChain.Request q : log.requests) {
            if (!q.source().equals(source)) {
                continue;
            }
            if (!q.block()) {
                lo = q.from();
                hi = q.to();
                continue;
            }
            if (!timing || (q.from() >= lo && q.from() <= hi)) {
                out.add(q.from() - 1);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The six adversaries' rankings of one run; index as {@link #ADVERSARIES}. */
    static DownloadAdversary.Ranking[] attack(DownloadAdversary adv, MainnetLikeChain.Wallet w, Setting s, Run run) {
        // Spread sends each block to one of k sources, the same one every session; without it source 0 gets all.
        double pw = s.policy().spread() ? 1.0 / s.sources() : 1.0;
        int lo = w.firstScript();
        int hi = lo + w.n();
        int[] o1 = inRange(run.observed1(), w.birth());
        int[] o1t = inRange(run.observed1Timing(), w.birth());
        int[] both = Bip158Experiment.intersect(o1, inRange(run.observed2(), w.birth()));
        int[] bothT = Bip158Experiment.intersect(o1t, inRange(run.observed2Timing(), w.birth()));
        DownloadAdversary.Result one = adv.rank(o1, w.birth(), lo, hi, pw, true);
        DownloadAdversary.Result timing = Arrays.equals(o1t, o1) ? one : adv.rank(o1t, w.birth(), lo, hi, pw, false);
        DownloadAdversary.Result two = Arrays.equals(both, o1) ? one : adv.rank(both, w.birth(), lo, hi, pw, false);
        DownloadAdversary.Result all = Arrays.equals(bothT, o1) ? one : adv.rank(bothT, w.birth(), lo, hi, pw, true);
        return new DownloadAdversary.Ranking[] {
            one.uniform(), one.cooccurrence(), timing.cooccurrence(), two.cooccurrence(), one.graph(), all.graph()
        };
    }

    private static int[] inRange(int[] blocks, int from) {
        return Arrays.stream(blocks).filter(b -> b >= from).toArray();
    }

    static List<String> header() {
        List<String> h = new ArrayList<>(List.of(
                "wallet",
                "N",
                "birth",
                "sources",
                "policy",
                "own_blocks",
                "matched_blocks",
                "downloads",
                "decoy_blocks",
                "blocks_per_match",
                "block_MB",
                "observed"));
        for (int a = 0; a < ADVERSARIES.size(); a++) {
            h.add("a" + a + "_ph1");
        }
        return h;
    }

    /** Runs every (wallet, setting) on {@code threads} threads; one raw row each, in wallet then setting order. */
    static Csv measure(World world, List<Setting> settings, int threads, Progress progress) {
        MainnetLikeChain chain = world.chain();
        Path tmp;
        try {
            tmp = Files.createTempDirectory("exp8-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Object[][][] rows = new Object[chain.wallets().size()][settings.size()][];
        AtomicInteger next = new AtomicInteger();
        List<RuntimeException> failures = new ArrayList<>();
        Runnable worker = () -> {
            DownloadAdversary adv = new DownloadAdversary(chain.occ);
            try {
                for (int i = next.getAndIncrement(); i < chain.wallets().size(); i = next.getAndIncrement()) {
                    MainnetLikeChain.Wallet w = chain.wallets().get(i);
                    int[] own = chain.ownBlocks(w);
                    for (int c = 0; c < settings.size(); c++) {
                        Setting s = settings.get(c);
                        Run run = run(world, w, s, tmp);
                        if (!run.ownAllDownloaded()) {
                            throw new IllegalStateException(
                                    "wallet " + i + " under " + s + " did not download every block paying it");
                        }
                        DownloadAdversary.Ranking[] r = attack(adv, w, s, run);
                        List<Object> row = new ArrayList<>(List.of(
                                i,
                                w.n(),
                                w.birth(),
                                s.sources(),
                                s.spec(),
                                own.length,
                                run.matched(),
                                run.downloads(),
                                run.decoys(),
                                (double) run.downloads() / Math.max(1, run.matched()),
                                run.blockBytes() / 1e6,
                                run.observed1().length));
                        for (DownloadAdversary.Ranking x : r) {
                            row.add(x.ph(1));
                        }
                        rows[i][c] = row.toArray();
                        if (progress != null) {
                            progress.add(1);
                        }
                    }
                }
            } catch (RuntimeException e) {
                synchronized (failures) {
                    failures.add(e);
                }
                next.set(chain.wallets().size());
            }
        };
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < Math.max(1, threads); t++) {
            Thread th = new Thread(worker, "exp8-" + t);
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        deleteTree(tmp);
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        Csv raw = new Csv(header().toArray(String[]::new));
        for (Object[][] perWallet : rows) {
            for (Object[] r : perWallet) {
                raw.row(r);
            }
        }
        return raw;
    }

    public static void run(Lab lab) {
        Path dir = lab.dir(DIR);
        MainnetLikeChain.Params p = params(lab.quick());
        long t0 = System.nanoTime();
        MainnetLikeChain chain = MainnetLikeChain.build(
                p, lab.seed("exp8/chain"), new Progress(lab.log(), "exp8: model chain,", 2L * p.blocks()));
        World world = world(chain, lab, new Progress(lab.log(), "exp8: real blocks + filters,", p.blocks()));
        double buildSeconds = (System.nanoTime() - t0) / 1e9;
        List<Setting> settings = settings();
        long t1 = System.nanoTime();
        Csv raw = measure(
                world,
                settings,
                lab.threads(),
                new Progress(
                        lab.log(), "exp8: wallet syncs,", (long) chain.wallets().size() * settings.size()));
        double syncSeconds = (System.nanoTime() - t1) / 1e9;
        raw.write(dir.resolve("exp8_raw.csv"));
        report(lab, dir, world, p, buildSeconds, syncSeconds, settings, raw);
    }

    /** Summary, plots and report from the raw rows. */
    static void report(
            Lab lab,
            Path dir,
            World world,
            MainnetLikeChain.Params p,
            double buildSeconds,
            double syncSeconds,
            List<Setting> settings,
            Csv raw) {
        Csv summary = summarise(lab, raw, settings);
        summary.write(dir.resolve("exp8_summary.csv"));
        List<String> plots = plots(dir, p, summary);
        FetchPolicyReport.write(
                lab, dir, world.chain(), world.real(), p, buildSeconds, syncSeconds, settings, summary, plots);
    }

    /**
     * Rewrites summary, plots and report from an existing {@code exp8_raw.csv} in the full-mode output directory
     * without re-running the syncs (the raw rows do not depend on which policy is the default); the costs of the run
     * that wrote the raw file are passed in, since they are not in it.
     */
    public static void rerender(Lab lab, double buildSeconds, double syncSeconds) {
        Path dir = lab.dir(DIR);
        MainnetLikeChain.Params p = params(lab.quick());
        MainnetLikeChain chain = MainnetLikeChain.build(p, lab.seed("exp8/chain"), null);
        World world = world(chain, lab, null);
        List<String> lines;
        try {
            lines = Files.readAllLines(dir.resolve("exp8_raw.csv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Csv raw = new Csv(split(lines.get(0)).toArray(String[]::new));
        for (String line : lines.subList(1, lines.size())) {
            raw.row(split(line).toArray());
        }
        report(lab, dir, world, p, buildSeconds, syncSeconds, settings(), raw);
    }

    /** A CSV line as {@link Csv} writes it (cells with commas in double quotes, no quotes inside). */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }

    /** The columns of exp8_summary.csv. */
    static final String[] SUMMARY_COLUMNS = {
        "N",
        "sources",
        "policy",
        "default",
        "adversary",
        "wallets",
        "mean_matched_blocks",
        "mean_downloads",
        "blocks_per_match",
        "blocks_per_match_lo",
        "blocks_per_match_hi",
        "mean_block_MB",
        "ph1",
        "ph1_lo",
        "ph1_hi"
    };

    /** Mean and 95% bootstrap interval of P_h(1) per (N, sources, policy, adversary), with the bandwidth. */
    static Csv summarise(Lab lab, Csv raw, List<Setting> settings) {
        Map<String, List<List<String>>> groups = new LinkedHashMap<>();
        for (List<String> r : raw.rows()) {
            groups.computeIfAbsent(r.get(1) + "|" + r.get(3) + "|" + r.get(4), k -> new ArrayList<>())
                    .add(r);
        }
        Csv s = new Csv(SUMMARY_COLUMNS);
        List<Map.Entry<String, List<List<String>>>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(Comparator.comparing((Map.Entry<String, List<List<String>>> e) ->
                        Integer.parseInt(e.getKey().split("\\|")[0]))
                .thenComparing(e -> Integer.parseInt(e.getKey().split("\\|")[1]))
                .thenComparing(e -> SPECS.indexOf(e.getKey().split("\\|")[2])));
        for (Map.Entry<String, List<List<String>>> e : sorted) {
            List<List<String>> rs = e.getValue();
            String[] key = e.getKey().split("\\|");
            boolean isDefault = new Setting(Integer.parseInt(key[1]), key[2]).isDefault();
            List<Double> perMatch = column(rs, 9);
            double[] cb = Stats.ci(perMatch, lab.seed("exp8/cib", e.getKey().hashCode()));
            for (int a = 0; a < ADVERSARIES.size(); a++) {
                List<Double> ph1 = column(rs, 12 + a);
                double[] c1 = Stats.ci(ph1, lab.seed("exp8/ci", e.getKey().hashCode(), a));
                s.row(
                        Integer.parseInt(key[0]),
                        Integer.parseInt(key[1]),
                        key[2],
                        isDefault ? "yes" : "",
                        ADVERSARIES.get(a),
                        rs.size(),
                        Stats.sig(Stats.mean(column(rs, 6)), 3),
                        Stats.sig(Stats.mean(column(rs, 7)), 3),
                        Stats.sig(Stats.mean(perMatch), 3),
                        Stats.sig(cb[0], 3),
                        Stats.sig(cb[1], 3),
                        Stats.sig(Stats.mean(column(rs, 10)), 3),
                        Stats.sig(Stats.mean(ph1), 3),
                        Stats.sig(c1[0], 3),
                        Stats.sig(c1[1], 3));
            }
        }
        return s;
    }

    static List<Double> column(List<List<String>> rows, int i) {
        List<Double> out = new ArrayList<>();
        for (List<String> r : rows) {
            out.add(Double.parseDouble(r.get(i)));
        }
        return out;
    }

    /** One frontier plot per (N, sources): x blocks downloaded per matched block, y P_h(1), one curve per adversary. */
    static List<String> plots(Path dir, MainnetLikeChain.Params p, Csv summary) {
        List<String> files = new ArrayList<>();
        for (int n : p.walletSizes()) {
            for (int k : SOURCES) {
                Plot plot = new Plot(
                                "Experiment 8: the real wallet's fetch policy, N = " + n + ", " + k
                                        + (k == 1 ? " source" : " sources (adversary: source 0)"),
                                "blocks downloaded per matched block (mean, 95% CI); one point per policy of the"
                                        + " grid (see the table)",
                                "P_h(1) of the adversary (mean over wallets, 95% CI)",
                                560)
                        .yRange(0, 1.05)
                        .legendBelow();
                List<Double> defaultX = new ArrayList<>();
                List<Double> defaultY = new ArrayList<>();
                for (int a = 0; a < ADVERSARIES.size(); a++) {
                    List<Double> x = new ArrayList<>();
                    List<Double> y = new ArrayList<>();
                    List<Double> lo = new ArrayList<>();
                    List<Double> hi = new ArrayList<>();
                    List<Double> xlo = new ArrayList<>();
                    List<Double> xhi = new ArrayList<>();
                    for (List<String> r : summary.rows()) {
                        if (Integer.parseInt(r.get(0)) == n
                                && Integer.parseInt(r.get(1)) == k
                                && r.get(4).equals(ADVERSARIES.get(a))) {
                            x.add(Double.parseDouble(r.get(8)));
                            xlo.add(Double.parseDouble(r.get(9)));
                            xhi.add(Double.parseDouble(r.get(10)));
                            y.add(Double.parseDouble(r.get(12)));
                            lo.add(Double.parseDouble(r.get(13)));
                            hi.add(Double.parseDouble(r.get(14)));
                            if (r.get(3).equals("yes")) {
                                defaultX.add(Double.parseDouble(r.get(8)));
                                defaultY.add(Double.parseDouble(r.get(12)));
                            }
                        }
                    }
                    if (x.isEmpty()) {
                        continue;
                    }
                    // Points are sorted by bandwidth so each curve reads left to right.
                    Integer[] idx =
                            Stream.iterate(0, i -> i + 1).limit(x.size()).toArray(Integer[]::new);
                    Arrays.sort(idx, Comparator.comparingDouble(x::get));
                    List<Double> xs = new ArrayList<>();
                    List<Double> ys = new ArrayList<>();
                    List<Double> los = new ArrayList<>();
                    List<Double> his = new ArrayList<>();
                    for (int i : idx) {
                        xs.add(x.get(i));
                        ys.add(y.get(i));
                        los.add(lo.get(i));
                        his.add(hi.get(i));
                    }
                    String name = ADVERSARIES.get(a);
                    if (ys.stream().allMatch(v -> v == 0)) {
                        name += " (0 at every point: drawn on the axis)";
                    } else if (ys.stream().allMatch(v -> v < 0.01)) {
                        name += " (every value below 0.01: on the axis, see the table)";
                    }
                    plot.measuredWithCi(name, xs, ys, los, his, a, (a - 2.5) * 0.015);
                    plot.xIntervals(y, xlo, xhi, a);
                }
                if (!defaultX.isEmpty()) {
                    double dx = defaultX.get(0);
                    plot.modelBlack(
                            "the default policy (" + FetchPolicy.DEFAULT_SPEC + "), dashed line",
                            List.of(dx, dx),
                            List.of(0.0, 1.05));
                }
                String f = "exp8_frontier_n" + n + "_sources" + k + ".png";
                plot.writePng(dir.resolve(f));
                files.add(f);
            }
        }
        return files;
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(q -> {
                try {
                    Files.deleteIfExists(q);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
