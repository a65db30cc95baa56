package org.blockfilter.privacylab.internal.chains;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.report.Stats;
import org.blockfilter.regtest.mainnet.MainnetProfile;
import org.blockfilter.regtest.mainnet.MainnetStatistics;

/**
 * Experiment 5's chain: a {@link MainnetLikeChain} (script ids per block, common-input clusters, real basic filters)
 * whose blocks are drawn, transaction by transaction, from the SAME samplers as the server's mainnet-profile
 * workload ({@link MainnetStatistics}; figures and sources in docs/mainnet-profile.md): transactions per block,
 * inputs and outputs per transaction, change sent back to the first input's script, payments to a population of
 * log-uniformly ranked reusers, and the spend-age law (young share from the last blocks, else log-uniform in age
 * counted in outputs). Only scripts are modelled, not serialized transactions.
 *
 * <p>What this model adds to the profile's, each an assumption stated in experiment 5's report:
 *
 * <ul>
 *   <li>The chain continues a history of {@link Shape#priorOutputs} unspent outputs (the profile's ramp): a spend
 *   reaching before block 0 spends one of them, whose script is a reuser's with the reuse share, else a script
 *   seen nowhere else in the chain.</li>
 *   <li>Wallets ({@link WalletModel#REUSE}, experiment 5's; {@link WalletModel#NO_REUSE} and the other
 *   {@link Assumptions} are the sensitivity study's): N addresses, born at a height uniform in the first half of the
 *   chain; each address is paid
 *   1 + Geometric(1/2) times in blocks uniform over [birth, tip) (an extra output of that block). A wallet's
 *   outputs are spent by the same law as every output: when the spend process picks one, the wallet spends it in
 *   a transaction of its own whose input count is drawn from the shared law and filled with the wallet's other
 *   unspent outputs (oldest first, as many as it has); its outputs follow the shared law, change sent back to the
 *   first input's script with the profile's share (a new wallet output, spent later by the same law).</li>
 *   <li>Common-input clusters: a wallet transaction's inputs are the wallet's (one owner, closed transitively). The
 *   profile draws a background transaction's inputs at random, without owners; closing that relation would chain
 *   most of the chain into one cluster through reused scripts, an artifact and not mainnet. So a background
 *   transaction clusters only the inputs whose script it spends for the first time.</li>
 * </ul>
 *
 * Script ids: reusers {@code [0, REUSERS)}, then the wallets' addresses in wallet order, then scripts used once (or
 * reused only through change). Stateless; package use only.
 */
public final class ProfileShapedChain {
    private ProfileShapedChain() {}

    /**
     * The chain's shape.
     *
     * @param blocks            chain length
     * @param txPerBlock        mean transactions per block (the profile's {@code txPerBlock})
     * @param priorOutputs      unspent outputs created before block 0 (the profile's {@code utxoTarget})
     * @param reuseShare        the profile's {@code reuseShare}
     * @param changeToSelfShare the profile's {@code changeToSelfShare}
     * @param walletSizes       N of each wallet group
     * @param walletsPerSize    wallets in each group
     * @param bytesPerElement   modelled block bytes per filter element
     */
    public record Shape(
            int blocks,
            int txPerBlock,
            int priorOutputs,
            double reuseShare,
            double changeToSelfShare,
            int[] walletSizes,
            int[] walletsPerSize,
            int bytesPerElement) {

        /** The mainnet profile's statistics ({@link MainnetProfile#MAINNET}) for a chain of this length and wallets. */
        public static Shape mainnet(int blocks, int[] walletSizes, int[] walletsPerSize, int bytesPerElement) {
            MainnetProfile m = MainnetProfile.MAINNET;
            return new Shape(
                    blocks,
                    m.txPerBlock(),
                    m.utxoTarget(),
                    m.reuseShare(),
                    m.changeToSelfShare(),
                    walletSizes,
                    walletsPerSize,
                    bytesPerElement);
        }

        public Shape withTxPerBlock(int v) {
            return new Shape(
                    blocks,
                    v,
                    priorOutputs,
                    reuseShare,
                    changeToSelfShare,
                    walletSizes,
                    walletsPerSize,
                    bytesPerElement);
        }

        public Shape withPriorOutputs(int v) {
            return new Shape(
                    blocks, txPerBlock, v, reuseShare, changeToSelfShare, walletSizes, walletsPerSize, bytesPerElement);
        }

        /** As {@link MainnetLikeChain.Params} (the fields this model does not use are 0), for code that reads them. */
        public MainnetLikeChain.Params params() {
            return new MainnetLikeChain.Params(
                    blocks, 0, 0, MainnetStatistics.REUSERS, 0, 0, walletSizes, walletsPerSize, bytesPerElement);
        }
    }

    /** How a wallet uses addresses. */
    public enum WalletModel {
        /**
         * Experiment 5's wallet: each of its N addresses is paid 1 + Geometric(1/2) times, and a spend's change goes
         * back to the first input's script with the profile's share.
         */
        REUSE,
        /**
         * A BIP 84 wallet that never reuses an address: the same payments (1 + Geometric(1/2) per address slot),
         * each to a fresh receive address, and change (with the same share) to a fresh change address. Its scripts
         * are the receive addresses it handed out and the change addresses it used.
         */
        NO_REUSE
    }

    /** Change addresses reserved per {@link WalletModel#NO_REUSE} wallet (a build that needs more fails loudly). */
    public static final int CHANGE_SLOTS = 64;

    /**
     * The assumptions the sensitivity study moves, one at a time; {@link #EXP5} is experiment 5's.
     *
     * @param youngShare   share of spends drawn from the last {@link MainnetStatistics#YOUNG_BLOCKS} blocks (the
     *                     profile's {@link MainnetStatistics#YOUNG_SHARE})
     * @param groupModels  the wallet model of each wallet group (parallel to {@link Shape#walletSizes}); empty: all
     *                     {@link WalletModel#REUSE}
     * @param groupSynced  the blocks each wallet group syncs (born at tip minus that; parallel to the groups); empty:
     *                     born at a height uniform in the first half of the chain, experiment 5's law
     */
    public record Assumptions(double youngShare, List<WalletModel> groupModels, List<Integer> groupSynced) {
        public static final Assumptions EXP5 = new Assumptions(MainnetStatistics.YOUNG_SHARE, List.of(), List.of());

        public Assumptions {
            if (!(youngShare >= 0 && youngShare <= 1)) {
                throw new IllegalArgumentException("young share must be in [0, 1]: " + youngShare);
            }
            groupModels = List.copyOf(groupModels);
            groupSynced = List.copyOf(groupSynced);
        }

        public WalletModel model(int group) {
            return groupModels.isEmpty() ? WalletModel.REUSE : groupModels.get(group);
        }
    }

    /** Counts gathered while building, for the report. */
    public record Stats(
            long txs, long inputs, long outputs, long priorSpends, long walletTxs, long walletChangeToSelf) {}

    /** The chain, its build counts and the change links the one-time-change heuristic draws in it. */
    public record Built(MainnetLikeChain chain, Stats stats, ChangeLinks changes) {}

    /** A growable int list. */
    private static final class Ints {
        int[] a = new int[8];
        int n;

        void add(int x) {
            if (n == a.length) {
                a = Arrays.copyOf(a, Math.max(8, 2 * n));
            }
            a[n++] = x;
        }
    }

    /** Builds the chain; {@code progress} counts blocks (twice: structure, then filters). */
    public static Built build(Shape shape, long seed, Progress progress) {
        return build(shape, Assumptions.EXP5, seed, progress, true);
    }

    /**
     * Builds the chain under {@code assumptions}; without {@code filters} no block filter is built (the chain's
     * {@code filter(b)} must then not be asked for: what only needs occurrences is faster) and {@code progress}
     * counts blocks once.
     */
    public static Built build(Shape shape, Assumptions assumptions, long seed, Progress progress, boolean filters) {
        int groups = shape.walletSizes().length;
        if (!assumptions.groupModels().isEmpty() && assumptions.groupModels().size() != groups) {
            throw new IllegalArgumentException("one wallet model per wallet group: " + assumptions.groupModels());
        }
        if (!assumptions.groupSynced().isEmpty() && assumptions.groupSynced().size() != groups) {
            throw new IllegalArgumentException("one synced range per wallet group: " + assumptions.groupSynced());
        }
        for (int synced : assumptions.groupSynced()) {
            if (synced < 1 || synced > shape.blocks()) {
                throw new IllegalArgumentException(
                        "a synced range of " + synced + " blocks does not fit a chain of " + shape.blocks());
            }
        }
        return new Builder(shape, assumptions, seed).run(progress, filters);
    }

    private static final class Builder {
        final Shape shape;
        final Assumptions assumptions;
        final long seed;
        final SplittableRandom rnd;
        final MainnetStatistics.Uniform u;
        final int prior;
        /** Scripts of the outputs created in the chain, by position - prior. */
        final Ints outScript = new Ints();
        /** Spent output positions (prior outputs first). */
        final BitSet spent = new BitSet();
        /** Positions of wallet outputs. */
        final BitSet walletOutput = new BitSet();
        /** The owner of each wallet output position, in position order (parallel to walletPositions). */
        final Ints walletPositions = new Ints();

        final Ints walletOwners = new Ints();
        /** Scripts spent at least once (a background transaction clusters first spends only). */
        final BitSet spentBefore = new BitSet();
        /** Pairs of scripts in one cluster. */
        final Ints unionA = new Ints();

        final Ints unionB = new Ints();
        final List<Ints> walletUnspent = new ArrayList<>();
        /** Per wallet: its next fresh change script and the end of its script range (no-reuse wallets only). */
        final Ints nextChange = new Ints();

        final Ints scriptsEnd = new Ints();
        /** Scripts that appeared in the chain so far (the one-time-change heuristic's "seen before"). */
        final BitSet seen = new BitSet();
        /** Change links so far: per block the first link, then (input, change, correct) per link. */
        final Ints linkStart = new Ints();

        final Ints linkInput = new Ints();
        final Ints linkChange = new Ints();
        final Ints linkCorrect = new Ints();
        long heuristicTxs;
        long walletLinks;
        long walletFreshChange;
        int next;
        long txs;
        long inputs;
        long outputs;
        long priorSpends;
        long walletTxs;
        long walletChange;
        int walletMulti;
        Ints block;
        int blockStartPos;

        Builder(Shape shape, Assumptions assumptions, long seed) {
            this.shape = shape;
            this.assumptions = assumptions;
            this.seed = seed;
            this.rnd = new SplittableRandom(seed);
            this.u = new MainnetStatistics.Uniform() {
                @Override
                public double nextDouble() {
                    return rnd.nextDouble();
                }

                @Override
                public int nextInt(int bound) {
                    return rnd.nextInt(bound);
                }
            };
            this.prior = shape.priorOutputs();
        }

        Built run(Progress progress, boolean withFilters) {
            int blocks = shape.blocks();
            // Wallets and their payments.
            List<MainnetLikeChain.Wallet> wallets = new ArrayList<>();
            Ints[] paidAt = new Ints[blocks];
            for (int b = 0; b < blocks; b++) {
                paidAt[b] = new Ints();
            }
            next = MainnetStatistics.REUSERS;
            for (int g = 0; g < shape.walletSizes().length; g++) {
                for (int k = 0; k < shape.walletsPerSize()[g]; k++) {
                    int n = shape.walletSizes()[g];
                    boolean reuse = assumptions.model(g) == WalletModel.REUSE;
                    int birth = assumptions.groupSynced().isEmpty()
                            ? rnd.nextInt(blocks / 2)
                            : blocks - assumptions.groupSynced().get(g);
                    Ints pays = new Ints(); // (height, script offset) pairs
                    int receives = 0;
                    for (int a = 0; a < n; a++) {
                        int times = 1 + geometricHalf(rnd);
                        for (int t = 0; t < times; t++) {
                            pays.add(birth + rnd.nextInt(blocks - birth));
                            pays.add(reuse ? a : receives++);
                        }
                    }
                    int slots = reuse ? n : receives + CHANGE_SLOTS;
                    MainnetLikeChain.Wallet w = new MainnetLikeChain.Wallet(wallets.size(), slots, birth, next);
                    wallets.add(w);
                    walletUnspent.add(new Ints());
                    nextChange.add(reuse ? -1 : next + receives);
                    scriptsEnd.add(next + slots);
                    for (int i = 0; i < pays.n; i += 2) {
                        paidAt[pays.a[i]].add(w.index());
                        paidAt[pays.a[i]].add(next + pays.a[i + 1]);
                    }
                    next += slots;
                }
            }
            // Blocks.
            int[] recentStarts = new int[MainnetStatistics.YOUNG_BLOCKS];
            Arrays.fill(recentStarts, prior);
            int[][] perBlock = new int[blocks][];
            for (int b = 0; b < blocks; b++) {
                block = new Ints();
                blockStartPos = prior + outScript.n;
                int youngFrom = recentStarts[b % MainnetStatistics.YOUNG_BLOCKS];
                recentStarts[b % MainnetStatistics.YOUNG_BLOCKS] = blockStartPos;
                linkStart.add(linkInput.n);
                int target = MainnetStatistics.txPerBlock(u, shape.txPerBlock());
                for (int i = 1; i < target; i++) {
                    backgroundTx(youngFrom);
                }
                seen.set(next);
                addOutput(next++, -1); // coinbase
                txs++;
                for (int i = 0; i < paidAt[b].n; i += 2) {
                    seen.set(paidAt[b].a[i + 1]);
                    addOutput(paidAt[b].a[i + 1], paidAt[b].a[i]);
                }
                paidAt[b] = null;
                perBlock[b] =
                        Arrays.stream(block.a, 0, block.n).sorted().distinct().toArray();
                if (progress != null) {
                    progress.add(1);
                }
            }
            int scripts = next;
            int[] start = new int[blocks + 1];
            for (int b = 0; b < blocks; b++) {
                start[b + 1] = start[b] + perBlock[b].length;
            }
            int[] blockScripts = new int[start[blocks]];
            for (int b = 0; b < blocks; b++) {
                System.arraycopy(perBlock[b], 0, blockScripts, start[b], perBlock[b].length);
                perBlock[b] = null;
            }
            int[] parent = Occurrences.identity(scripts);
            for (int i = 0; i < unionA.n; i++) {
                Occurrences.union(parent, unionA.a[i], unionB.a[i]);
            }
            Occurrences occ = Occurrences.of(scripts, start, blockScripts, parent);
            MainnetLikeChain chain = new MainnetLikeChain(
                    shape.params(),
                    seed,
                    occ,
                    withFilters ? MainnetLikeChain.filters(occ, seed, progress) : null,
                    List.copyOf(wallets),
                    walletMulti);
            linkStart.add(linkInput.n);
            boolean[] correct = new boolean[linkCorrect.n];
            long right = 0;
            for (int i = 0; i < correct.length; i++) {
                correct[i] = linkCorrect.a[i] != 0;
                right += linkCorrect.a[i];
            }
            ChangeLinks changes = new ChangeLinks(
                    Arrays.copyOf(linkStart.a, linkStart.n),
                    Arrays.copyOf(linkInput.a, linkInput.n),
                    Arrays.copyOf(linkChange.a, linkChange.n),
                    correct,
                    new ChangeLinks.Truth(heuristicTxs, linkInput.n, right, walletLinks, walletFreshChange));
            return new Built(chain, new Stats(txs, inputs, outputs, priorSpends, walletTxs, walletChange), changes);
        }

        /**
         * Applies the one-time-change heuristic to a transaction as the chain emits it ({@code change}: the script of
         * its real change output, -1 when it has none the heuristic could find), records the link, and marks its
         * scripts seen.
         */
        private void heuristic(Ints ins, Ints outs, int change, boolean wallet) {
            heuristicTxs++;
            for (int i = 0; i < ins.n; i++) {
                seen.set(ins.a[i]);
            }
            int named = ChangeLinks.oneTimeChange(ins.a, ins.n, outs.a, outs.n, seen);
            if (wallet && change >= 0) {
                walletFreshChange++;
            }
            if (named >= 0) {
                linkInput.add(ins.a[0]);
                linkChange.add(named);
                linkCorrect.add(named == change ? 1 : 0);
                if (wallet) {
                    walletLinks++;
                }
            }
            for (int i = 0; i < outs.n; i++) {
                seen.set(outs.a[i]);
            }
        }

        private void addOutput(int script, int wallet) {
            int pos = prior + outScript.n;
            outScript.add(script);
            block.add(script);
            outputs++;
            if (wallet >= 0) {
                walletOutput.set(pos);
                walletPositions.add(pos);
                walletOwners.add(wallet);
                walletUnspent.get(wallet).add(pos);
            }
        }

        /** The script of a new output that is not change sent back: a reuser's or a fresh one. */
        private int payee() {
            return rnd.nextDouble() < shape.reuseShare() ? MainnetStatistics.reuserRank(u) : next++;
        }

        /** The script of a spent output position (a prior output's is drawn now: each is spent once). */
        private int scriptAt(int pos) {
            if (pos >= prior) {
                return outScript.a[pos - prior];
            }
            priorSpends++;
            return payee();
        }

        /** An unspent output of an earlier block by the profile's spend-age law; the next unspent one at or after. */
        private int drawSpend(int youngFrom) {
            int limit = blockStartPos;
            int from;
            // The profile's youngSpend(u) is u.nextDouble() < YOUNG_SHARE: the same draw, with the share a parameter.
            if (u.nextDouble() < assumptions.youngShare() && youngFrom < limit) {
                from = youngFrom + rnd.nextInt(limit - youngFrom);
            } else {
                from = (int) Math.max(0, limit - MainnetStatistics.oldSpendAge(u, limit));
            }
            int s = spent.nextClearBit(from);
            if (s >= limit) {
                s = spent.nextClearBit(0);
                if (s >= limit) {
                    throw new IllegalStateException("no unspent output left before position " + limit);
                }
            }
            spent.set(s);
            return s;
        }

        private void backgroundTx(int youngFrom) {
            int nIn = MainnetStatistics.inputsPerTx(u);
            int nOut = MainnetStatistics.outputsPerTx(u);
            int first = -1;
            int clusterHead = -1;
            Ints ins = new Ints();
            for (int k = 0; k < nIn; ) {
                int pos = drawSpend(youngFrom);
                if (walletOutput.get(pos)) {
                    walletTx(pos);
                    continue; // the wallet spends its own output; this transaction draws another input
                }
                int s = scriptAt(pos);
                block.add(s);
                ins.add(s);
                inputs++;
                if (first < 0) {
                    first = s;
                }
                if (!spentBefore.get(s)) {
                    spentBefore.set(s);
                    if (clusterHead < 0) {
                        clusterHead = s;
                    } else {
                        unionA.add(clusterHead);
                        unionB.add(s);
                    }
                }
                k++;
            }
            boolean changeToSelf = nOut >= 2 && rnd.nextDouble() < shape.changeToSelfShare();
            Ints outs = new Ints();
            for (int o = 0; o < nOut; o++) {
                int s = changeToSelf && o == nOut - 1 ? first : payee();
                outs.add(s);
                addOutput(s, -1);
            }
            // Change back to an input's script is not one-time change; a payee is never change in this model.
            heuristic(ins, outs, -1, false);
            txs++;
        }

        /** The wallet that owns output {@code pos} spends it, with its other unspent outputs as the shared law asks. */
        private void walletTx(int pos) {
            int i = Arrays.binarySearch(walletPositions.a, 0, walletPositions.n, pos);
            int w = walletOwners.a[i];
            Ints mine = walletUnspent.get(w);
            remove(mine, pos);
            int nIn = MainnetStatistics.inputsPerTx(u);
            List<Integer> in = new ArrayList<>(List.of(pos));
            for (int j = 0; j < mine.n && in.size() < nIn; ) {
                int p = mine.a[j];
                if (p < blockStartPos) {
                    spent.set(p);
                    in.add(p);
                    remove(mine, p);
                } else {
                    j++;
                }
            }
            int first = outScript.a[pos - prior];
            Ints ins = new Ints();
            for (int p : in) {
                int s = outScript.a[p - prior];
                block.add(s);
                ins.add(s);
                inputs++;
                if (s != first) {
                    unionA.add(first);
                    unionB.add(s);
                }
            }
            if (in.size() > 1) {
                walletMulti++;
            }
            int nOut = MainnetStatistics.outputsPerTx(u);
            boolean changeToSelf = nOut >= 2 && rnd.nextDouble() < shape.changeToSelfShare();
            Ints outs = new Ints();
            int fresh = -1;
            for (int o = 0; o < nOut; o++) {
                if (changeToSelf && o == nOut - 1) {
                    int s = nextChange.a[w] < 0 ? first : freshChange(w);
                    fresh = s == first ? -1 : s;
                    outs.add(s);
                    addOutput(s, w);
                    walletChange++;
                } else {
                    int s = payee();
                    outs.add(s);
                    addOutput(s, -1);
                }
            }
            heuristic(ins, outs, fresh, true);
            walletTxs++;
            txs++;
        }

        /** A no-reuse wallet's next unused change script. */
        private int freshChange(int w) {
            int s = nextChange.a[w]++;
            if (s >= scriptsEnd.a[w]) {
                throw new IllegalStateException("wallet " + w + " used all its " + CHANGE_SLOTS + " change addresses");
            }
            return s;
        }

        private static void remove(Ints list, int value) {
            for (int j = 0; j < list.n; j++) {
                if (list.a[j] == value) {
                    System.arraycopy(list.a, j + 1, list.a, j, list.n - j - 1);
                    list.n--;
                    return;
                }
            }
        }
    }

    private static int geometricHalf(SplittableRandom rnd) {
        int n = 0;
        while (rnd.nextBoolean()) {
            n++;
        }
        return n;
    }
}
