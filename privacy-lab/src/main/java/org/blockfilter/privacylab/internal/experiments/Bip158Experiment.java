package org.blockfilter.privacylab.internal.experiments;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.blockfilter.filters.Bip158;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.report.Csv;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;

/**
 * Experiment 5: BIP 158 instead of BIP 37. Wallets sync a chain drawn from the mainnet profile's samplers
 * ({@link ProfileShapedChain}, held as a {@link MainnetLikeChain}) with its real basic filters; observers see the
 * blocks they download and rank the chain's scripts ({@link DownloadAdversary}), after timing and intersection
 * across re-syncs where stated. P_h(1) and P_h(N) with 95% bootstrap intervals per wallet size, observer, decoy
 * policy and adversary, and bandwidth, beside BIP 37; the headline under one assumption moved at a time
 * ({@link Bip158Sensitivity}). Tables and plots: {@link Bip158Tables}; report: {@link Bip158Report}.
 */
public final class Bip158Experiment {
    static final int[] PEERS = {1, 4};
    /** Mainnet height at the time of writing, for the start-height note. */
    static final int MAINNET_HEIGHT = 870_000;
    /** BIP 37 merkleblock: 80-byte header, tx count, a few hashes and flags. */
    static final int MERKLEBLOCK_BYTES = 150;

    /** How the wallet adds decoy downloads. */
    enum Policy {
        /** Only the matched blocks. */
        NONE,
        /**
         * d random extra blocks per matched block, uniform over the synced range, drawn afresh each sync and
         * requested together with the matched block (not when the scan passes them).
         */
        RANDOM,
        /**
         * Each block of the range is a decoy when a hash of (wallet seed, height) falls below a rate set so that
         * there are d decoys per matched block on average; the same in every sync, requested when the scan passes
         * them.
         */
        SEEDED
    }

    /** A decoy setting. */
    record Setting(Policy policy, int decoys) {
        String label() {
            return policy == Policy.NONE ? "no decoys" : policy.name().toLowerCase() + " " + decoys + "/match";
        }
    }

    static final List<Setting> SETTINGS = List.of(
            new Setting(Policy.NONE, 0),
            new Setting(Policy.RANDOM, 1),
            new Setting(Policy.RANDOM, 4),
            new Setting(Policy.SEEDED, 1),
            new Setting(Policy.SEEDED, 4));

    /** The adversaries, in report order. */
    static final List<String> ADVERSARIES = List.of(
            "uniform",
            "co-occurrence",
            "co-occurrence + timing",
            "co-occurrence + 2 re-syncs (intersection)",
            "co-occurrence + 2 re-syncs (union)",
            "tx graph",
            "tx graph + timing + 2 re-syncs (intersection)",
            "tx graph + timing + 2 re-syncs (union)");

    private Bip158Experiment() {}

    /** The decoy settings measured for wallets of N addresses at {@code peers} peers (fewer where a cell is costly). */
    static List<Setting> settings(int n, int peers) {
        if (n >= 100) {
            return peers == 1 ? List.of(SETTINGS.get(0), SETTINGS.get(1), SETTINGS.get(3)) : List.of(SETTINGS.get(0));
        }
        return peers == 1 ? SETTINGS : List.of(SETTINGS.get(0), SETTINGS.get(2), SETTINGS.get(4));
    }

    /**
     * The chain: the mainnet profile's statistics ({@link ProfileShapedChain.Shape#mainnet}); quick mode has fewer,
     * smaller blocks (300 transactions, a 1,000,000-output history) and fewer wallets.
     */
    static ProfileShapedChain.Shape shape(boolean quick) {
        return quick
                ? ProfileShapedChain.Shape.mainnet(200, new int[] {1, 10}, new int[] {30, 20}, 250)
                        .withTxPerBlock(300)
                        .withPriorOutputs(1_000_000)
                : ProfileShapedChain.Shape.mainnet(2000, new int[] {1, 10, 100}, new int[] {300, 100, 20}, 250);
    }

    /** One sync's downloads: sorted blocks and whether each was requested as the filter scan passed it. */
    record Downloads(int[] blocks, boolean[] onScan) {}

    /** The downloads for {@code matched} under {@code s}; RANDOM decoys come from {@code rnd}, SEEDED from the wallet. */
    static Downloads downloads(int tip, int[] matched, int from, Setting s, long walletSeed, SplittableRandom rnd) {
        boolean[] in = new boolean[tip];
        boolean[] off = new boolean[tip];
        for (int b : matched) {
            in[b] = true;
        }
        int free = tip - from - matched.length;
        if (s.policy() == Policy.RANDOM) {
            int want = Math.min(free, s.decoys() * matched.length);
            for (int added = 0; added < want; ) {
                int b = from + rnd.nextInt(tip - from);
                if (!in[b]) {
                    in[b] = true;
                    off[b] = true;
                    added++;
                }
            }
        } else if (s.policy() == Policy.SEEDED && free > 0) {
            double rate = Math.min(1, (double) s.decoys() * matched.length / free);
            for (int b = from; b < tip; b++) {
                if (!in[b] && unit(AddressUniverse.mix(walletSeed ^ AddressUniverse.mix(b))) < rate) {
                    in[b] = true;
                }
            }
        }
        int[] blocks = IntStream.range(from, tip).filter(b -> in[b]).toArray();
        boolean[] onScan = new boolean[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            onScan[i] = !off[blocks[i]];
        }
        return new Downloads(blocks, onScan);
    }

    private static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }

    /** The blocks peer 0 of {@code peers} sees, each download going to a random peer; timing keeps on-scan ones. */
    static int[] observe(Downloads d, int peers, SplittableRandom rnd, boolean timing) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < d.blocks().length; i++) {
            boolean seen = rnd.nextInt(peers) == 0;
            if (seen && (!timing || d.onScan()[i])) {
                out.add(d.blocks()[i]);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static int[] intersect(int[] a, int[] b) {
        return Arrays.stream(a).filter(x -> Arrays.binarySearch(b, x) >= 0).toArray();
    }

    /** The sorted distinct blocks of either sorted set. */
    static int[] union(int[] a, int[] b) {
        return IntStream.concat(Arrays.stream(a), Arrays.stream(b))
                .sorted()
                .distinct()
                .toArray();
    }

    /**
     * The probability that an observer serving one of {@code peers} saw a given wallet block in at least one of
     * {@code syncs} syncs, each assigning its downloads to peers afresh: 1 - (1 - 1/peers)^syncs.
     */
    static double seenInAny(int peers, int syncs) {
        return 1 - Math.pow(1 - 1.0 / peers, syncs);
    }

    /**
     * The adversaries' rankings for one wallet, observer and setting; index as {@link #ADVERSARIES}. Two syncs of the
     * same range: the intersection of what the observer saw keeps a wallet block with probability 1/peers^2, the
     * union with {@link #seenInAny seenInAny(peers, 2)}.
     */
    static DownloadAdversary.Ranking[] attack(
            DownloadAdversary adv,
            MainnetLikeChain chain,
            MainnetLikeChain.Wallet w,
            int[] matched,
            Setting s,
            int peers,
            long walletSeed,
            long syncSeed) {
        int tip = chain.blocks();
        SplittableRandom r1 = new SplittableRandom(syncSeed);
        SplittableRandom r2 = new SplittableRandom(AddressUniverse.mix(syncSeed + 1));
        Downloads d1 = downloads(tip, matched, w.birth(), s, walletSeed, r1);
        Downloads d2 = downloads(tip, matched, w.birth(), s, walletSeed, r2);
        // The same peer assignment draws serve the plain and the timing view of one sync.
        long p1 = r1.nextLong();
        long p2 = r2.nextLong();
        int[] o1 = observe(d1, peers, new SplittableRandom(p1), false);
        int[] o1t = observe(d1, peers, new SplittableRandom(p1), true);
        int[] o2 = observe(d2, peers, new SplittableRandom(p2), false);
        int[] o2t = observe(d2, peers, new SplittableRandom(p2), true);
        double pw1 = 1.0 / peers;
        double pw2 = pw1 * pw1;
        int lo = w.firstScript();
        int hi = lo + w.n();
        DownloadAdversary.Result one = adv.rank(o1, w.birth(), lo, hi, pw1, true);
        // Views equal to the plain one (no decoys to drop, one peer) are not ranked again.
        DownloadAdversary.Result timing = Arrays.equals(o1t, o1) ? one : adv.rank(o1t, w.birth(), lo, hi, pw1, false);
        int[] i12 = intersect(o1, o2);
        DownloadAdversary.Result both =
                Arrays.equals(i12, o1) && pw2 == pw1 ? one : adv.rank(i12, w.birth(), lo, hi, pw2, false);
        int[] i12t = intersect(o1t, o2t);
        DownloadAdversary.Result all =
                Arrays.equals(i12t, o1) && pw2 == pw1 ? one : adv.rank(i12t, w.birth(), lo, hi, pw2, true);
        double pwU = seenInAny(peers, 2);
        int[] u12 = union(o1, o2);
        DownloadAdversary.Result either =
                Arrays.equals(u12, o1) && pwU == pw1 ? one : adv.rank(u12, w.birth(), lo, hi, pwU, false);
        int[] u12t = union(o1t, o2t);
        DownloadAdversary.Result anyT =
                Arrays.equals(u12t, o1) && pwU == pw1 ? one : adv.rank(u12t, w.birth(), lo, hi, pwU, true);
        return new DownloadAdversary.Ranking[] {
            one.uniform(),
            one.cooccurrence(),
            timing.cooccurrence(),
            both.cooccurrence(),
            either.cooccurrence(),
            one.graph(),
            all.graph(),
            anyT.graph()
        };
    }

    public static void run(Lab lab) {
        Path dir = lab.dir("exp5-bip158");
        ProfileShapedChain.Shape shape = shape(lab.quick());
        MainnetLikeChain.Params p = shape.params();
        // First, while no other chain is in memory: the headline under one assumption moved at a time.
        Csv sensitivity = Bip158Sensitivity.run(lab, dir, shape);
        long t0 = System.nanoTime();
        ProfileShapedChain.Built built = ProfileShapedChain.build(
                shape,
                lab.seed("exp5/chain"),
                new Progress(lab.log(), "exp5: build chain + real filters,", 2L * p.blocks()));
        MainnetLikeChain chain = built.chain();
        double buildSeconds = (System.nanoTime() - t0) / 1e9;
        lab.log().printf("exp5: chain of %d blocks built in %.1f s%n", p.blocks(), buildSeconds);

        Csv fpRate = Bip158Tables.measureFalsePositiveRate(chain, lab.quick() ? 500 : 2_000, lab.seed("exp5/probes"));
        int[][] matched = chain.syncAll(lab.threads());
        long trials = 0;
        long fpBlocks = 0;
        int[][] own = new int[chain.wallets().size()][];
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            own[w.index()] = chain.ownBlocks(w);
            for (int b : own[w.index()]) {
                if (Arrays.binarySearch(matched[w.index()], b) < 0) {
                    throw new IllegalStateException("false negative: wallet " + w.index() + " block " + b);
                }
            }
            trials += (long) (chain.blocks() - w.birth()) * w.n();
            fpBlocks += matched[w.index()].length - own[w.index()].length;
        }
        fpRate.row(
                "wallet syncs: false-positive blocks per (watched script x synced block)",
                trials,
                fpBlocks,
                (double) fpBlocks / trials,
                1.0 / Bip158.BASIC_M,
                fpBlocks == 0 ? Double.NaN : (double) trials / fpBlocks);
        fpRate.write(dir.resolve("exp5_fp_rate.csv"));

        // Every (wallet, observer, setting): every adversary.
        List<String> header = new ArrayList<>(List.of(
                "wallet",
                "N",
                "birth",
                "synced_blocks",
                "own_blocks",
                "fp_blocks",
                "peers",
                "policy",
                "decoys",
                "downloads",
                "total_MB"));
        for (int a = 0; a < ADVERSARIES.size(); a++) {
            header.add("a" + a + "_candidates");
            header.add("a" + a + "_ph1");
            header.add("a" + a + "_phN");
        }
        Object[][][] rows = new Object[chain.wallets().size()][][];
        long units = 0;
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            for (int k : PEERS) {
                units += settings(w.n(), k).size();
            }
        }
        Progress progress = new Progress(lab.log(), "exp5: adversaries,", units);
        AtomicInteger nextWallet = new AtomicInteger();
        Runnable worker = () -> {
            DownloadAdversary adv = new DownloadAdversary(chain.occ);
            for (int i = nextWallet.getAndIncrement(); i < chain.wallets().size(); i = nextWallet.getAndIncrement()) {
                MainnetLikeChain.Wallet w = chain.wallets().get(i);
                long filterBytes = chain.filterBytes(w.birth());
                int c = 0;
                rows[i] = new Object
                        [settings(w.n(), 1).size() + settings(w.n(), PEERS[1]).size()][];
                for (int k : PEERS) {
                    for (Setting s : settings(w.n(), k)) {
                        long walletSeed = lab.seed("exp5/wallet", i);
                        DownloadAdversary.Ranking[] r = attack(
                                adv,
                                chain,
                                w,
                                matched[i],
                                s,
                                k,
                                walletSeed,
                                lab.seed("exp5/sync", i, k, s.policy().ordinal(), s.decoys()));
                        Downloads d = downloads(
                                chain.blocks(),
                                matched[i],
                                w.birth(),
                                s,
                                walletSeed,
                                new SplittableRandom(
                                        lab.seed("exp5/sync", i, k, s.policy().ordinal(), s.decoys())));
                        long bytes = filterBytes;
                        for (int b : d.blocks()) {
                            bytes += chain.blockBytes(b);
                        }
                        List<Object> row = new ArrayList<>(List.of(
                                i,
                                w.n(),
                                w.birth(),
                                chain.blocks() - w.birth(),
                                own[i].length,
                                matched[i].length - own[i].length,
                                k,
                                s.policy().name(),
                                s.decoys(),
                                d.blocks().length,
                                bytes / 1e6));
                        for (DownloadAdversary.Ranking x : r) {
                            row.add(x.candidates());
                            row.add(x.ph(1));
                            row.add(x.ph(w.n()));
                        }
                        rows[i][c++] = row.toArray();
                        progress.add(1);
                    }
                }
            }
        };
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < Math.max(1, lab.threads()); t++) {
            Thread th = new Thread(worker, "exp5-" + t);
            th.start();
            threads.add(th);
        }
        for (Thread th : threads) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        Csv raw = new Csv(header.toArray(String[]::new));
        for (Object[][] perWallet : rows) {
            for (Object[] r : perWallet) {
                raw.row(r);
            }
        }
        raw.write(dir.resolve("exp5_raw.csv"));
        Csv summary = Bip158Tables.summarise(lab, raw);
        summary.write(dir.resolve("exp5_summary.csv"));
        Csv bip37 = Bip158Tables.bip37(chain, own, p);
        bip37.write(dir.resolve("exp5_bip37.csv"));
        List<String> plots = Bip158Tables.plots(dir, p, summary);
        Bip158Report.write(
                lab, dir, chain, shape, built.stats(), buildSeconds, fpRate, summary, bip37, plots, sensitivity);
    }

    static int settingIndex(String policy, int decoys) {
        for (int i = 0; i < SETTINGS.size(); i++) {
            if (SETTINGS.get(i).policy().name().equals(policy)
                    && SETTINGS.get(i).decoys() == decoys) {
                return i;
            }
        }
        throw new IllegalArgumentException(policy + " " + decoys);
    }
}
