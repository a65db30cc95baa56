package org.blockfilter.privacylab.internal.experiments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bitcoinj.crypto.MnemonicCode;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.blockfilter.privacylab.internal.chains.ProfileShapedChain;
import org.blockfilter.privacylab.internal.chains.RealChain;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;

/**
 * One wallet's two sync sessions in experiment 8, with the real wallet and sync engine against k logging sources, and
 * what each source (and the network between them) saw: the first session one sync of the whole range, or for a
 * block-by-block setting ({@link FetchPolicyExperiment.Setting#incremental}) a sync after every few new blocks from
 * the birthday to the tip; the second a rescan of the range from the birthday. Stateless.
 */
final class FetchPolicyRun {
    private FetchPolicyRun() {}

    /** A lab wallet's keys: a 12-word mnemonic from the lab seed, its P2WPKH account. */
    static HdAccount account(long seed) {
        byte[] entropy = new byte[16];
        new SplittableRandom(seed).nextBytes(entropy);
        List<String> words = MnemonicCode.INSTANCE.toMnemonic(entropy);
        WalletKeys keys = WalletKeys.fromMnemonic(
                words, "", RealChain.NETWORK, WalletKeys.DEFAULT_GAP_LIMIT, List.of(AddressKind.P2WPKH));
        return keys.account(AddressKind.P2WPKH).orElseThrow();
    }

    /**
     * The chain, the real chain carrying the wallets' real scripts, each wallet's account, each block's serialized
     * size (model block b is height b + 1), which a BIP 324 observer sees, each wallet's address model and each
     * wallet's N (the addresses it is paid to under the reuse model, the address slots paid under no reuse).
     */
    record World(
            MainnetLikeChain chain,
            RealChain real,
            HdAccount[] accounts,
            int[] blockSizes,
            ProfileShapedChain.WalletModel[] models,
            int[] walletN) {
        /** The address model of wallet {@code w}. */
        ProfileShapedChain.WalletModel model(int w) {
            return models[w];
        }
    }

    /** A world whose wallets are all experiment 5's reuse model (N = each wallet's script count). */
    static World world(MainnetLikeChain chain, Lab lab, long chainSeed, Progress progress) {
        int[] n = chain.wallets().stream().mapToInt(MainnetLikeChain.Wallet::n).toArray();
        return world(chain, ProfileShapedChain.WalletModel.REUSE, n, lab, chainSeed, progress);
    }

    /**
     * A world whose wallets follow {@code model}. Reuse: a wallet's script ids are its first N receive keys. No reuse
     * ({@link ProfileShapedChain#CHANGE_SLOTS} change slots after the receive ids): the receive ids get receive keys
     * 0, 1, ... in the order the chain first pays them ({@link #receiveOrder}: a wallet hands out its next unused
     * address), the change ids change keys in id order (the chain uses them in that order).
     */
    static World world(
            MainnetLikeChain chain,
            ProfileShapedChain.WalletModel model,
            int[] walletN,
            Lab lab,
            long chainSeed,
            Progress progress) {
        ProfileShapedChain.WalletModel[] models =
                new ProfileShapedChain.WalletModel[chain.wallets().size()];
        Arrays.fill(models, model);
        return world(chain, models, walletN, lab, chainSeed, progress);
    }

    /** A world whose wallet i follows {@code models[i]} (keys as in the one-model world of that model). */
    static World world(
            MainnetLikeChain chain,
            ProfileShapedChain.WalletModel[] models,
            int[] walletN,
            Lab lab,
            long chainSeed,
            Progress progress) {
        HdAccount[] accounts = new HdAccount[chain.wallets().size()];
        Map<Integer, byte[]> walletKeys = new HashMap<>();
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            boolean reuse = models[w.index()] == ProfileShapedChain.WalletModel.REUSE;
            accounts[w.index()] = account(
                    reuse
                            ? lab.seed("exp8/wallet", chainSeed, w.index())
                            : lab.seed("exp8/wallet-no-reuse", chainSeed, w.index()));
            HdAccount a = accounts[w.index()];
            if (reuse) {
                for (int i = 0; i < w.n(); i++) {
                    walletKeys.put(w.firstScript() + i, a.key(false, i).getPubKey());
                }
                continue;
            }
            int receives = w.n() - ProfileShapedChain.CHANGE_SLOTS;
            List<Integer> order = receiveOrder(chain.occ, w);
            for (int i = 0; i < receives; i++) {
                walletKeys.put(order.get(i), a.key(false, i).getPubKey());
            }
            for (int c = 0; c < ProfileShapedChain.CHANGE_SLOTS; c++) {
                walletKeys.put(w.firstScript() + receives + c, a.key(true, c).getPubKey());
            }
        }
        RealChain real = new RealChain(
                chain,
                id -> walletKeys.containsKey(id) ? walletKeys.get(id) : RealChain.pseudoPubKey(chain.seed, id),
                progress);
        int[] sizes = new int[chain.blocks()];
        for (int b = 0; b < sizes.length; b++) {
            sizes[b] = real.rawSize(b + 1);
        }
        return new World(chain, real, accounts, sizes, models.clone(), walletN.clone());
    }

    /**
     * A no-reuse wallet's receive ids in receive-key order: by the first block each is in (ids never paid last), ties
     * by id.
     */
    static List<Integer> receiveOrder(Occurrences occ, MainnetLikeChain.Wallet w) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < w.n() - ProfileShapedChain.CHANGE_SLOTS; i++) {
            order.add(w.firstScript() + i);
        }
        order.sort(java.util.Comparator.comparingInt((Integer id) -> firstBlock(occ, id))
                .thenComparingInt(id -> id));
        return order;
    }

    /** The first block script {@code id} is in; {@link Integer#MAX_VALUE} if none. */
    static int firstBlock(Occurrences occ, int id) {
        int first = Integer.MAX_VALUE;
        for (int i = occ.scriptStart[id]; i < occ.scriptStart[id + 1]; i++) {
            first = Math.min(first, occ.scriptBlocks[i]);
        }
        return first;
    }

    /**
     * One wallet's two sessions under one setting: the engine's counts for the first (downloads: every block request;
     * distinct: the blocks among them, which a block-by-block wallet requests again when a later sync's decoy seed or
     * look-back falls on a block an earlier sync fetched and discarded), and per session and source the model blocks
     * it served (all, and those requested while the wallet's scan front covered them: {@link #observed}).
     */
    record Run(
            int matched,
            int downloads,
            int decoys,
            int distinct,
            long blockBytes,
            int[][] served1,
            int[][] served1Timing,
            int[][] served2,
            int[][] served2Timing,
            boolean ownAllDownloaded) {
        int[] observed1() {
            return served1[0];
        }

        int[] observed1Timing() {
            return served1Timing[0];
        }

        int[] observed2() {
            return served2[0];
        }
    }

    /** Syncs wallet {@code w} twice under {@code s}, in a fresh directory under {@code tmp}. */
    static Run run(World world, MainnetLikeChain.Wallet w, FetchPolicyExperiment.Setting s, Path tmp) {
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
            int k = s.engineSources();
            RealChain.Log log1 = new RealChain.Log();
            int matched;
            int decoys;
            if (s.incremental()) {
                // Block by block: a sync each time the chain grows by the step, from the birthday to the tip, one
                // log for the whole history (each sync's block requests follow its own filter batch).
                matched = 0;
                decoys = 0;
                int tip = world.real().tipHeight();
                for (int t = Math.min(tip, w.birth() + s.step()); ; t = Math.min(tip, t + s.step())) {
                    SyncReport r = session(world, wallet, s, k, log1, t);
                    matched += r.matchedBlocks();
                    decoys += r.decoyBlocks();
                    if (t == tip) {
                        break;
                    }
                }
            } else {
                SyncReport r1 = session(world, wallet, s, k, log1, world.real().tipHeight());
                matched = r1.matchedBlocks();
                decoys = r1.decoyBlocks();
            }
            wallet.rescanFrom(w.birth() + 1);
            RealChain.Log log2 = new RealChain.Log();
            session(world, wallet, s, k, log2, world.real().tipHeight());
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
            int[][] a1 = served(log1, k, false);
            int[][] a2 = served(log2, k, false);
            int[][] t1 = served(log1, k, true);
            int[][] t2 = served(log2, k, true);
            if (s.tor()) {
                // Each block over a fresh circuit from a peer drawn uniformly among the k, anew in each session.
                SplittableRandom rnd =
                        new SplittableRandom(w.index() * 31L + s.spec().hashCode());
                a1 = scatter(a1[0], s.sources(), rnd);
                a2 = scatter(a2[0], s.sources(), rnd);
                t1 = a1;
                t2 = a2;
            }
            return new Run(matched, downloads, decoys, all.size(), bytes, a1, t1, a2, t2, ownAll);
        } finally {
            FetchPolicyExperiment.deleteTree(dir);
        }
    }

    /** One sync of {@code wallet} against k sources whose tip is at height {@code tip}. */
    private static SyncReport session(
            World world, LightWallet wallet, FetchPolicyExperiment.Setting s, int k, RealChain.Log log, int tip) {
        List<ChainSource> sources = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            sources.add(world.real().source("source-" + i, log, tip));
        }
        return new SyncEngine(
                        wallet,
                        sources,
                        SyncEngine.Options.defaults()
                                .withFetchPolicy(s.policy())
                                .withPause(log::pause))
                .sync();
    }

    /** Blocks given to k peers, each to one drawn uniformly. */
    static int[][] scatter(int[] blocks, int k, SplittableRandom rnd) {
        List<List<Integer>> by = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            by.add(new ArrayList<>());
        }
        for (int b : blocks) {
            by.get(rnd.nextInt(k)).add(b);
        }
        int[][] out = new int[k][];
        for (int i = 0; i < k; i++) {
            out[i] = by.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }

    /** Per source 0..k-1, {@link #observed} of it. */
    static int[][] served(RealChain.Log log, int k, boolean timing) {
        int[][] out = new int[k][];
        for (int i = 0; i < k; i++) {
            out[i] = observed(log, "source-" + i, timing);
        }
        return out;
    }

    /**
     * The model blocks (height - 1) of the blocks {@code source} served; with {@code timing}, only those requested
     * while the wallet's scan front covered them (what an observer that also serves the filters keeps): the front is
     * the filter batch with the highest first height served so far. A batch below it (a decoy's look-back, a rescan
     * after the gap window slid) does not move it, so which blocks are kept does not depend on where the shuffled
     * requests fall between such fetches.
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
                if (q.from() > lo) {
                    lo = q.from();
                    hi = q.to();
                }
                continue;
            }
            if (!timing || (q.from() >= lo && q.from() <= hi)) {
                out.add(q.from() - 1);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The sorted union of the first {@code s} sources' blocks. */
    static int[] union(int[][] bySource, int s) {
        TreeSet<Integer> out = new TreeSet<>();
        for (int i = 0; i < Math.min(s, bySource.length); i++) {
            for (int b : bySource[i]) {
                out.add(b);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
