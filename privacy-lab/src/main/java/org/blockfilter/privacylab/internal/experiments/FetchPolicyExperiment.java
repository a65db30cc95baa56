package org.blockfilter.privacylab.internal.experiments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.blockfilter.privacylab.internal.adversaries.ChangeAdversary;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.chains.RealChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.wallet.sync.FetchPolicy;

/**
 * Experiment 8: the real wallet's block-fetch policy, measured. Lab wallets (HD, P2WPKH, watch-only from their
 * account key) sync a {@link RealChain} built from experiment 5's {@link ProfileShapedChain} (mainnet's transactions
 * per block in full mode), for several chain seeds, with the wallet module's real
 * {@link org.blockfilter.wallet.sync.SyncEngine} over k
 * in-memory sources that log every filter and block request ({@link FetchPolicyRun}). Each wallet syncs twice (a
 * second session: rescan from its birthday); block-by-block settings sync after every few new blocks first. Per chain
 * seed a separate long chain ({@link FetchPolicyLongChain}: weeks of blocks, reuse and no-reuse wallets born at its start) is
 * synced block by block only ({@link #LONG_SPECS}). The adversaries of {@link FetchPolicyAdversaries} then rank the chain's
 * scripts from what each observer saw; P_h(1) per wallet, the mean per (N, sources, policy, adversary) with a Wilson
 * interval whose sample size is shrunk by the chain-seed design effect ({@link FetchPolicySummary}), against the
 * bandwidth the policy costs.
 */
public final class FetchPolicyExperiment {
    static final String DIR = "exp8-fetch-policy";

    /**
     * A measured cell: k sources and a policy spec. A spec starting with {@code tor} is the lab's model of fetching
     * each block over a fresh Tor circuit from a peer drawn uniformly among k (Wasabi's documented behaviour): the
     * engine runs the rest of the spec against one source and each download is then given to a random peer.
     */
    record Setting(int sources, String spec) {
        boolean tor() {
            return spec.equals("tor") || spec.startsWith("tor,");
        }

        /**
         * A spec {@code incremental=S,POLICY} is a wallet synced block by block: a sync after every S new blocks from
         * its birthday to the tip (then, as every setting, a rescan from the birthday as its second session), under
         * POLICY.
         */
        boolean incremental() {
            return spec.startsWith(INCREMENTAL_PREFIX);
        }

        /** The blocks between a block-by-block wallet's syncs. */
        int step() {
            if (!incremental()) {
                throw new IllegalStateException("not a block-by-block setting: " + spec);
            }
            return Integer.parseInt(spec.substring(INCREMENTAL_PREFIX.length(), spec.indexOf(',')));
        }

        /**
         * A spec {@code incremental=S,long,POLICY} is a block-by-block wallet of the long chain ({@link FetchPolicyLongChain}):
         * weeks of blocks synced from its birthday at the chain's first block.
         */
        boolean longChain() {
            return incremental() && spec.substring(spec.indexOf(',') + 1).startsWith(LONG_TOKEN);
        }

        /** The policy part of the spec (without {@code tor}, {@code incremental=S} or {@code long}). */
        String policySpec() {
            if (incremental()) {
                String rest = spec.substring(spec.indexOf(',') + 1);
                return rest.startsWith(LONG_TOKEN) ? rest.substring(LONG_TOKEN.length()) : rest;
            }
            if (tor()) {
                return spec.equals("tor") ? "none" : spec.substring(4);
            }
            return spec;
        }

        FetchPolicy policy() {
            return FetchPolicy.parse(policySpec());
        }

        /** The sources the engine syncs against (one for tor: the peers are drawn afterwards). */
        int engineSources() {
            return tor() ? 1 : sources;
        }

        boolean isDefault() {
            return !tor() && !incremental() && policy().equals(FetchPolicy.DEFAULT);
        }
    }

    private static final String INCREMENTAL_PREFIX = "incremental=";

    private static final String LONG_TOKEN = "long,";

    /**
     * The grid's block-by-block wallet syncs after every this many new blocks: hourly at mainnet's 144 blocks a day (a
     * sync per block costs the wallet a save of its file per sync, and at mainnet block size the lab's wallets hold
     * blocks' whole payment transactions).
     */
    static final int INCREMENTAL_STEP = 6;

    /** The spec prefix of the grid's block-by-block settings ({@link Setting#incremental}). */
    static final String INCREMENTAL = INCREMENTAL_PREFIX + INCREMENTAL_STEP + ",";

    /**
     * The measured grid per number of sources, plus the default if a grid lacks it. The default is chosen from these
     * by the rule the report states, so the grid must not move with it. At mainnet block size a sync costs seconds,
     * so the grid is the decoy levels the earlier default was chosen from, one cluster level and their combination at
     * one source, and at four sources what spreading, the default, clusters and Tor add.
     */
    static final List<String> SPECS_ONE = withDefault(
            List.of("none", "spread,decoys=2,shuffle", "spread,decoys=4,shuffle", "spread,clusters=2,shuffle"));

    static final List<String> SPECS_MANY = withDefault(List.of("none", "spread,shuffle", "spread,decoys=4,shuffle"));

    /** Every non-Tor spec, in report order. */
    static final List<String> SPECS = java.util.stream.Stream.concat(SPECS_ONE.stream(), SPECS_MANY.stream())
            .distinct()
            .toList();

    /** The Tor settings, at the largest k only (a random peer per block needs peers to choose from). */
    static final List<String> TOR_SPECS = List.of("tor");

    /** The block-by-block settings, at one source: no policy and the default, against the same adversaries. */
    static final List<String> INCREMENTAL_SPECS = List.of(INCREMENTAL + "none", INCREMENTAL + FetchPolicy.DEFAULT_SPEC);

    /** The block-by-block settings of the long chain's wallets: the same policies, weeks of blocks. */
    static final List<String> LONG_SPECS = INCREMENTAL_SPECS.stream()
            .map(s -> INCREMENTAL + LONG_TOKEN + s.substring(INCREMENTAL.length()))
            .toList();

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

    private FetchPolicyExperiment() {}

    /** Every (sources, spec) of the grid, Tor at the largest k, and the block-by-block settings. */
    static List<Setting> settings() {
        List<Setting> out = new ArrayList<>();
        for (int k : SOURCES) {
            for (String s : k == 1 ? SPECS_ONE : SPECS_MANY) {
                out.add(new Setting(k, s));
            }
        }
        for (String s : TOR_SPECS) {
            out.add(new Setting(SOURCES[SOURCES.length - 1], s));
        }
        for (String s : INCREMENTAL_SPECS) {
            out.add(new Setting(1, s));
        }
        return out;
    }

    /**
     * The settings the no-reuse wallets sync under, reported beside the reuse wallets': no policy and the default at
     * one source and the default at the largest k. A subset of {@link #settings()}: at mainnet block size a decoy
     * setting costs minutes of sync per chain seed.
     */
    static List<Setting> noReuseSettings() {
        return List.of(
                new Setting(1, "none"),
                new Setting(1, FetchPolicy.DEFAULT_SPEC),
                new Setting(SOURCES[SOURCES.length - 1], FetchPolicy.DEFAULT_SPEC));
    }

    /** The wallet model's name in the raw rows' last column. */
    static String modelName(ProfileShapedChain.WalletModel m) {
        return m.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** Report order of a spec (grid, then tor, then block by block, then the long chain's); -1 if none of these. */
    static int specOrder(String spec) {
        return Stream.of(SPECS, TOR_SPECS, INCREMENTAL_SPECS, LONG_SPECS)
                .flatMap(List::stream)
                .toList()
                .indexOf(spec);
    }

    /** Each wallet's N in wallet order (group by group, as {@link ProfileShapedChain} numbers them). */
    static int[] walletN(ProfileShapedChain.Shape shape) {
        List<Integer> out = new ArrayList<>();
        for (int g = 0; g < shape.walletSizes().length; g++) {
            for (int k = 0; k < shape.walletsPerSize()[g]; k++) {
                out.add(shape.walletSizes()[g]);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Experiment 5's chain at mainnet's statistics and block size; quick mode: short, small blocks. */
    static ProfileShapedChain.Shape shape(boolean quick) {
        return quick
                ? ProfileShapedChain.Shape.mainnet(120, new int[] {1, 10}, new int[] {4, 2}, 250)
                        .withTxPerBlock(150)
                        .withPriorOutputs(200_000)
                : ProfileShapedChain.Shape.mainnet(300, new int[] {1, 10}, new int[] {4, 4}, 250);
    }

    /** Chain seeds: each a different chain (and wallets); intervals carry the variance between them. */
    static int chainSeeds(boolean quick) {
        return quick ? 2 : 3;
    }

    static List<String> header() {
        List<String> h = new ArrayList<>(List.of(
                "wallet",
                "chain",
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
                "MB_per_day",
                "observed",
                "size_identified"));
        for (int a = 0; a < FetchPolicyAdversaries.NAMES.size(); a++) {
            h.add("a" + a + "_ph1");
        }
        for (int a = 0; a < FetchPolicyAdversaries.NAMES.size(); a++) {
            h.add("a" + a + "_bits");
        }
        h.add("model");
        h.add("distinct_downloads");
        return h;
    }

    /** The raw rows of one wallet model. */
    static Csv ofModel(Csv raw, ProfileShapedChain.WalletModel m) {
        Csv out = new Csv(raw.header().toArray(String[]::new));
        for (List<String> r : raw.rows()) {
            if (r.get(MODEL_COLUMN).equals(modelName(m))) {
                out.row(r.toArray());
            }
        }
        return out;
    }

    /** Index of the first P_h(1) column in {@link #header()}. */
    static final int PH1_COLUMN = 15;

    /** Index of the wallet model column ({@link #modelName}) in {@link #header()}; the distinct downloads follow. */
    static final int MODEL_COLUMN = PH1_COLUMN + 2 * FetchPolicyAdversaries.NAMES.size();

    /** Runs every (wallet, setting) of one chain on {@code threads} threads; raw rows in wallet then setting order. */
    static List<Object[]> measure(
            FetchPolicyRun.World world,
            ChangeLinks changes,
            int chainIndex,
            List<Setting> settings,
            int threads,
            Progress progress) {
        MainnetLikeChain chain = world.chain();
        Path tmp;
        try {
            tmp = Files.createTempDirectory("exp8-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Object[][][] rows = new Object[chain.wallets().size()][settings.size()][];
        // Work units (wallet, setting), the largest wallets first so the slowest syncs do not come last.
        List<int[]> units = new ArrayList<>();
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            for (int c = 0; c < settings.size(); c++) {
                units.add(new int[] {w.index(), c});
            }
        }
        units.sort(
                Comparator.comparingInt((int[] u) -> -chain.wallets().get(u[0]).n()));
        AtomicInteger next = new AtomicInteger();
        List<RuntimeException> failures = new ArrayList<>();
        Runnable worker = () -> {
            DownloadAdversary adv = new DownloadAdversary(chain.occ);
            ChangeAdversary change = new ChangeAdversary(chain.occ, changes);
            try {
                for (int i = next.getAndIncrement(); i < units.size(); i = next.getAndIncrement()) {
                    int[] u = units.get(i);
                    MainnetLikeChain.Wallet w = chain.wallets().get(u[0]);
                    rows[u[0]][u[1]] = row(world, adv, change, chainIndex, w, settings.get(u[1]), tmp);
                    if (progress != null) {
                        progress.add(1);
                    }
                }
            } catch (RuntimeException e) {
                synchronized (failures) {
                    failures.add(e);
                }
                next.set(units.size());
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
        List<Object[]> out = new ArrayList<>();
        for (Object[][] perWallet : rows) {
            out.addAll(List.of(perWallet));
        }
        return out;
    }

    /** {@link #measure} on the lab's threads, its progress logged as chain {@code c}'s {@code what} wallet syncs. */
    static List<Object[]> measure(
            Lab lab, FetchPolicyRun.World world, ChangeLinks changes, int c, List<Setting> settings, String what) {
        return measure(
                world,
                changes,
                c,
                settings,
                lab.threads(),
                new Progress(
                        lab.log(),
                        "exp8: chain " + c + ", " + what + "wallet syncs,",
                        (long) world.chain().wallets().size() * settings.size()));
    }

    /** One raw row: wallet {@code w} synced twice under {@code s}, and every adversary's answer. */
    static Object[] row(
            FetchPolicyRun.World world,
            DownloadAdversary adv,
            ChangeAdversary change,
            int chainIndex,
            MainnetLikeChain.Wallet w,
            Setting s,
            Path tmp) {
        FetchPolicyRun.Run run = FetchPolicyRun.run(world, w, s, tmp);
        if (!run.ownAllDownloaded()) {
            throw new IllegalStateException(
                    "wallet " + w.index() + " under " + s + " did not download every block paying it");
        }
        FetchPolicyAdversaries.Outcome o = FetchPolicyAdversaries.attack(adv, change, world.blockSizes(), w, s, run);
        int range = world.chain().blocks() - w.birth();
        List<Object> row = new ArrayList<>(List.of(
                w.index(),
                chainIndex,
                world.walletN()[w.index()],
                w.birth(),
                s.sources(),
                s.spec(),
                world.chain().ownBlocks(w).length,
                run.matched(),
                run.downloads(),
                run.decoys(),
                (double) run.downloads() / Math.max(1, run.matched()),
                run.blockBytes() / 1e6,
                Stats.sig(run.blockBytes() / 1e6 * 144 / range, 4),
                run.observed1().length,
                Stats.sig(o.sizeIdentified(), 4)));
        for (double x : o.ph1()) {
            row.add(x);
        }
        for (double x : o.bits()) {
            row.add(Stats.sig(x, 4));
        }
        row.add(modelName(world.model(w.index())));
        row.add(run.distinct());
        return row.toArray();
    }

    /**
     * The chain seeds this process runs: all, or those named in the system property {@code exp8.chains} (e.g.
     * {@code 1,2}) so that seeds can run in parallel processes; {@link FetchPolicyOutputs#merge} then joins their outputs into what one
     * run of all seeds writes (each seed's rows depend on the seed alone).
     */
    static List<Integer> chainIndexes(boolean quick) {
        String only = System.getProperty("exp8.chains");
        if (only == null || only.isBlank()) {
            return java.util.stream.IntStream.range(0, chainSeeds(quick))
                    .boxed()
                    .toList();
        }
        return java.util.Arrays.stream(only.split(","))
                .map(String::trim)
                .map(Integer::valueOf)
                .toList();
    }

    public static void run(Lab lab) {
        double loadAtStart = FetchPolicySummary.Setup.loadNow();
        Path dir = lab.dir(DIR);
        ProfileShapedChain.Shape shape = shape(lab.quick());
        List<Integer> chains = chainIndexes(lab.quick());
        int seeds = chains.size();
        List<Setting> settings = settings();
        Csv raw = new Csv(header().toArray(String[]::new));
        double buildSeconds = 0;
        double syncSeconds = 0;
        double elements = 0;
        double rawBytes = 0;
        int wallets = 0;
        int noReuseWallets = 0;
        int longWallets = 0;
        Csv bip37 = new Csv("chain", "wallet", "N", "ph1", "entropy_bits");
        Csv change = new Csv(ChangeLinkingCheck.HEADER);
        for (int c : chains) {
            long t0 = System.nanoTime();
            long chainSeed = lab.seed("exp8/chain", c);
            ProfileShapedChain.Built built = ProfileShapedChain.build(
                    shape, chainSeed, new Progress(lab.log(), "exp8: chain " + c + ", model,", 2L * shape.blocks()));
            MainnetLikeChain chain = built.chain();
            FetchPolicyRun.World world = FetchPolicyRun.world(
                    chain, lab, c, new Progress(lab.log(), "exp8: chain " + c + ", real blocks,", shape.blocks()));
            buildSeconds += (System.nanoTime() - t0) / 1e9;
            elements += (double) chain.occ.blockStart[chain.occ.blocks] / chain.occ.blocks / seeds;
            for (int size : world.blockSizes()) {
                rawBytes += (double) size / world.blockSizes().length / seeds;
            }
            wallets += chain.wallets().size();
            List<double[]> b37 = FetchPolicyAdversaries.bip37Today(chain, lab.seed("exp8/bip37", c));
            for (int w = 0; w < b37.size(); w++) {
                bip37.row(c, w, (int) b37.get(w)[0], b37.get(w)[1], b37.get(w)[2]);
            }
            long t1 = System.nanoTime();
            change.row(ChangeLinkingCheck.row(c, ProfileShapedChain.WalletModel.REUSE, built));
            List<Object[]> rows = measure(lab, world, built.changes(), c, settings, "");
            syncSeconds += (System.nanoTime() - t1) / 1e9;
            rows.forEach(raw::row);
            // The same chain seed with every wallet group on the no-reuse model (the chain the change-link check
            // reads), its wallets synced under the no-reuse settings.
            world = null;
            built = null;
            chain = null;
            long t2 = System.nanoTime();
            ProfileShapedChain.Built fresh = ProfileShapedChain.build(
                    shape,
                    ChangeLinkingCheck.noReuseAssumptions(shape),
                    chainSeed,
                    new Progress(lab.log(), "exp8: chain " + c + ", no-reuse model,", 2L * shape.blocks()),
                    true);
            MainnetLikeChain freshChain = fresh.chain();
            FetchPolicyRun.World freshWorld = FetchPolicyRun.world(
                    freshChain,
                    ProfileShapedChain.WalletModel.NO_REUSE,
                    walletN(shape),
                    lab,
                    c,
                    new Progress(lab.log(), "exp8: chain " + c + ", no-reuse real blocks,", shape.blocks()));
            buildSeconds += (System.nanoTime() - t2) / 1e9;
            noReuseWallets += freshChain.wallets().size();
            change.row(ChangeLinkingCheck.row(c, ProfileShapedChain.WalletModel.NO_REUSE, fresh));
            long t3 = System.nanoTime();
            measure(lab, freshWorld, fresh.changes(), c, noReuseSettings(), "no-reuse ")
                    .forEach(raw::row);
            syncSeconds += (System.nanoTime() - t3) / 1e9;
            freshWorld = null;
            fresh = null;
            freshChain = null;
            FetchPolicyLongChain.Part part = FetchPolicyLongChain.run(lab, c);
            part.rows().forEach(raw::row);
            longWallets += part.wallets();
            buildSeconds += part.buildSeconds();
            syncSeconds += part.syncSeconds();
        }
        raw.write(dir.resolve("exp8_raw.csv"));
        FetchPolicySummary.Setup setup = new FetchPolicySummary.Setup(
                shape.blocks(),
                seeds,
                wallets,
                noReuseWallets,
                FetchPolicyLongChain.shape(lab.quick()).blocks(),
                longWallets,
                elements,
                rawBytes,
                shape.bytesPerElement(),
                buildSeconds,
                syncSeconds,
                buildSeconds + syncSeconds,
                lab.threads(),
                1,
                Runtime.getRuntime().availableProcessors(),
                loadAtStart);
        setup.write(dir.resolve("exp8_setup.csv"));
        bip37.write(dir.resolve("exp8_bip37_raw.csv"));
        change.write(dir.resolve(CHANGE_FILE));
        FetchPolicyOutputs.report(lab, dir, shape, setup, settings, raw, bip37, change);
    }

    /** The summary of the no-reuse wallets' rows (exp8_summary.csv's columns). */
    static final String NO_REUSE_SUMMARY = "exp8_summary_no_reuse.csv";

    /** Per chain and wallet model: the one-time-change heuristic against ground truth ({@link ChangeLinkingCheck}). */
    static final String CHANGE_FILE = "exp8_change_links.csv";

    /** Groups of raw rows by a key, in first-seen order. */
    static Map<String, List<List<String>>> group(Csv raw, java.util.function.Function<List<String>, String> key) {
        return raw.rows().stream()
                .collect(Collectors.groupingBy(key, java.util.LinkedHashMap::new, Collectors.toList()));
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
