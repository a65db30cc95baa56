package org.blockfilter.privacylab.internal.adversaries;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.privacylab.internal.chains.Occurrences;

/**
 * The adversaries of the BIP 158 experiment. Each sees a set O of blocks the wallet downloaded from it, knows the
 * whole chain ({@link Occurrences}) and the synced range [from, tip) (the first filter the wallet asked for), and
 * ranks every script that appears in an observed block; it guesses its top j. P_h(j) is the probability that the
 * top j are all the wallet's, ties broken uniformly at random (computed exactly, not sampled).
 *
 * <ul>
 *   <li><b>uniform</b>: every candidate equally likely. Candidates: scripts with a block in O; when the observer
 *   sees every download ({@code pWallet = 1}) only <i>consistent</i> ones, all of whose blocks in range are in
 *   O. This is the lab's earlier adversary.</li>
 *   <li><b>co-occurrence</b>: scores a candidate by the log-likelihood ratio of its pattern, o of its t blocks in
 *   range observed, between "it is the wallet's" (each of its blocks is in O with probability
 *   {@code pWallet}) and "it is not" (with probability |O| / range):
 *   {@code o ln(pW/pO) + (t - o) ln((1 - pW)/(1 - pO))}. With {@code pWallet = 1} an unobserved block rules a
 *   script out and the rest rank by how many observed blocks contain them: a wallet script paid and spent in
 *   downloaded blocks beats a script seen in one downloaded (or decoy) block.</li>
 *   <li><b>transaction graph</b>: the same score for common-input clusters (scripts spent together), every member
 *   ranked with its cluster.</li>
 * </ul>
 *
 * Timing and intersection across re-syncs act on O before ranking (see experiment 5, {@code Bip158Experiment}).
 * Stateless apart from scratch arrays; one instance per thread.
 */
public final class DownloadAdversary {
    private final Occurrences occ;
    private final int[] stampS;
    private final int[] countS;
    private final int[] stampC;
    private final int[] countC;
    private final int[] lastBlockC;
    private int epoch;
    private int[] touchedS = new int[1 << 16];
    private int[] touchedC = new int[1 << 16];

    public DownloadAdversary(Occurrences occ) {
        this.occ = occ;
        this.stampS = new int[occ.scripts];
        this.countS = new int[occ.scripts];
        this.stampC = new int[occ.clusters];
        this.countC = new int[occ.clusters];
        this.lastBlockC = new int[occ.clusters];
    }

    /** The guesses of the three adversaries on one observation. */
    public record Result(Ranking uniform, Ranking cooccurrence, Ranking graph) {}

    /**
     * Ranks the candidates.
     *
     * @param observed   the observed blocks, sorted, distinct, within [from, tip)
     * @param from       the first block of the synced range
     * @param walletLo   the wallet's first script id (inclusive); its scripts are {@code walletLo .. walletHi-1}
     * @param walletHi   the wallet's last script id (exclusive)
     * @param pWallet    the probability that a block of the wallet's is in O (1 for an observer that sees every
     *                   download, 1/k for one of k peers)
     */
    public Result rank(int[] observed, int from, int walletLo, int walletHi, double pWallet) {
        return rank(observed, from, walletLo, walletHi, pWallet, true);
    }

    /** As {@link #rank(int[], int, int, int, double)}; without {@code graph} the graph ranking is null (faster). */
    public Result rank(int[] observed, int from, int walletLo, int walletHi, double pWallet, boolean graph) {
        return rank(observed, from, walletLo, walletHi, pWallet, graph, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /**
     * As {@link #rank(int[], int, int, int, double, boolean)} for an adversary that knows the fetch policy's published
     * adoption rules: a decoy script is in at most {@code scriptMax} blocks of the range, a decoy cluster's scripts in
     * at most {@code clusterMax}, so a candidate in more cannot be a decoy and ranks above every candidate that could
     * (then by the same score). A script is held to {@code scriptMax}; a cluster of one script to {@code scriptMax},
     * of more to {@code clusterMax}. {@link Integer#MAX_VALUE} for both is the policy-blind adversary.
     */
    public Result rank(
            int[] observed,
            int from,
            int walletLo,
            int walletHi,
            double pWallet,
            boolean graph,
            int scriptMax,
            int clusterMax) {
        return rank(observed, from, walletLo, walletHi, pWallet, graph, scriptMax, clusterMax, null);
    }

    /**
     * As {@link #rank(int[], int, int, int, double, boolean, int, int)} for an observer that can tell only the blocks
     * marked {@code visible} (indexed by block; null: all): a candidate's blocks in range are counted over visible
     * blocks only, and the range is the visible blocks in it (a BIP 324 observer knows a download only when its size is
     * unique, so the other blocks say nothing either way).
     */
    public Result rank(
            int[] observed,
            int from,
            int walletLo,
            int walletHi,
            double pWallet,
            boolean graph,
            int scriptMax,
            int clusterMax,
            boolean[] visible) {
        epoch++;
        int nS = 0;
        int nC = 0;
        for (int b : observed) {
            for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
                int s = occ.blockScripts[i];
                if (stampS[s] != epoch) {
                    stampS[s] = epoch;
                    countS[s] = 0;
                    if (nS == touchedS.length) {
                        touchedS = java.util.Arrays.copyOf(touchedS, 2 * nS);
                    }
                    touchedS[nS++] = s;
                }
                countS[s]++;
                if (!graph) {
                    continue;
                }
                int c = occ.cluster[s];
                if (stampC[c] != epoch) {
                    stampC[c] = epoch;
                    countC[c] = 0;
                    lastBlockC[c] = -1;
                    if (nC == touchedC.length) {
                        touchedC = java.util.Arrays.copyOf(touchedC, 2 * nC);
                    }
                    touchedC[nC++] = c;
                }
                if (lastBlockC[c] != b) {
                    lastBlockC[c] = b;
                    countC[c]++;
                }
            }
        }
        int range = rangeBlocks(occ, from, visible);
        double pOther = Math.min(0.999999, (double) observed.length / Math.max(1, range));
        double pW = Math.max(pWallet, pOther);
        Tally uniform = new Tally();
        Tally cooc = new Tally();
        for (int i = 0; i < nS; i++) {
            int s = touchedS[i];
            int t = count(occ.scriptBlocks, occ.scriptStart[s], occ.scriptStart[s + 1], from, visible);
            int o = countS[s];
            boolean mine = s >= walletLo && s < walletHi;
            if (pWallet < 1 || o == t) {
                uniform.add(0, 0, mine ? 1 : 0, mine ? 0 : 1);
            }
            cooc.add(o, t, mine ? 1 : 0, mine ? 0 : 1, t > scriptMax);
        }
        if (!graph) {
            return new Result(uniform.ranking(pW, pOther, true), cooc.ranking(pW, pOther, false), null);
        }
        Tally clusters = new Tally();
        for (int k = 0; k < nC; k++) {
            int c = touchedC[k];
            int t = count(occ.clusterBlocks, occ.clusterBlockStart[c], occ.clusterBlockStart[c + 1], from, visible);
            int o = countC[c];
            int real = 0;
            int size = occ.clusterStart[c + 1] - occ.clusterStart[c];
            for (int i = occ.clusterStart[c]; i < occ.clusterStart[c + 1]; i++) {
                int s = occ.clusterMembers[i];
                if (s >= walletLo && s < walletHi) {
                    real++;
                }
            }
            clusters.add(o, t, real, size - real, t > (size == 1 ? scriptMax : clusterMax));
        }
        return new Result(
                uniform.ranking(pW, pOther, true),
                cooc.ranking(pW, pOther, false),
                clusters.ranking(pW, pOther, false));
    }

    /** The blocks of the range from {@code from} the observer can tell apart: all of them, or the visible ones. */
    static int rangeBlocks(Occurrences occ, int from, boolean[] visible) {
        if (visible == null) {
            return occ.blocks - from;
        }
        int range = 0;
        for (int b = from; b < occ.blocks; b++) {
            range += visible[b] ? 1 : 0;
        }
        return range;
    }

    /** Blocks {@code list[lo..hi)} (ascending) at or after {@code from}, counting only visible ones when given. */
    static int count(int[] list, int lo, int hi, int from, boolean[] visible) {
        if (visible == null) {
            return Occurrences.countFrom(list, lo, hi, from);
        }
        int n = 0;
        for (int i = lo; i < hi; i++) {
            if (list[i] >= from && visible[list[i]]) {
                n++;
            }
        }
        return n;
    }

    /** Candidates grouped by their (observed, in-range) block counts and whether they cannot be decoys. */
    static final class Tally {
        // An open-addressing map from pattern key to (real, fake) counts: a rank adds one candidate per script of
        // every observed block, hundreds of thousands at mainnet block size, and a boxed map was the lab's top cost.
        private long[] keys = new long[64];
        private long[] reals = new long[64];
        private long[] fakes = new long[64];
        private boolean[] used = new boolean[64];
        private int size;

        void add(int o, int t, int real, int fake) {
            add(o, t, real, fake, false);
        }

        void add(int o, int t, int real, int fake, boolean notDecoy) {
            long key = ((long) o << 32) | t | (notDecoy ? 1L << 63 : 0);
            int i = slot(key);
            if (!used[i]) {
                used[i] = true;
                keys[i] = key;
                if (++size * 2 > keys.length) {
                    grow();
                    i = slot(key);
                }
            }
            reals[i] += real;
            fakes[i] += fake;
        }

        private int slot(long key) {
            int mask = keys.length - 1;
            int i = (int) (Long.hashCode(key * 0x9E3779B97F4A7C15L) & mask);
            while (used[i] && keys[i] != key) {
                i = (i + 1) & mask;
            }
            return i;
        }

        private void grow() {
            long[] k = keys;
            long[] r = reals;
            long[] f = fakes;
            boolean[] u = used;
            keys = new long[k.length * 2];
            reals = new long[k.length * 2];
            fakes = new long[k.length * 2];
            used = new boolean[k.length * 2];
            for (int j = 0; j < k.length; j++) {
                if (u[j]) {
                    int i = slot(k[j]);
                    used[i] = true;
                    keys[i] = k[j];
                    reals[i] = r[j];
                    fakes[i] = f[j];
                }
            }
        }

        Ranking ranking(double pW, double pO, boolean flat) {
            // Groups by (tier, score): candidates that cannot be decoys first (tier 1), then by score.
            Map<List<Double>, long[]> byScore = new HashMap<>();
            for (int j = 0; j < keys.length; j++) {
                if (!used[j]) {
                    continue;
                }
                long key = keys[j];
                int o = (int) ((key >>> 32) & 0x7fffffffL);
                int t = (int) key;
                double tier = key < 0 ? 1 : 0;
                double score = flat ? 0 : score(o, t, pW, pO);
                if (score == Double.NEGATIVE_INFINITY) {
                    continue;
                }
                long[] rf = byScore.computeIfAbsent(List.of(tier, score), k -> new long[2]);
                rf[0] += reals[j];
                rf[1] += fakes[j];
            }
            List<Map.Entry<List<Double>, long[]>> groups = new ArrayList<>(byScore.entrySet());
            groups.sort((a, b) -> {
                int c = Double.compare(b.getKey().get(0), a.getKey().get(0));
                return c != 0 ? c : Double.compare(b.getKey().get(1), a.getKey().get(1));
            });
            long[] real = new long[groups.size()];
            long[] fake = new long[groups.size()];
            double[] scores = new double[groups.size()];
            boolean[] sure = new boolean[groups.size()];
            for (int i = 0; i < groups.size(); i++) {
                real[i] = groups.get(i).getValue()[0];
                fake[i] = groups.get(i).getValue()[1];
                scores[i] = groups.get(i).getKey().get(1);
                sure[i] = groups.get(i).getKey().get(0) > 0;
            }
            return new Ranking(real, fake, scores, sure);
        }
    }

    /** The log-likelihood ratio of o of t blocks observed (wallet: pW per block; other: pO per block). */
    public static double score(int o, int t, double pW, double pO) {
        if (o > t) {
            throw new IllegalArgumentException("observed " + o + " > blocks in range " + t);
        }
        double s = o * Math.log(pW / pO);
        if (t > o) {
            if (pW >= 1) {
                return Double.NEGATIVE_INFINITY;
            }
            s += (t - o) * Math.log((1 - pW) / (1 - pO));
        }
        return s;
    }

    /**
     * Candidates in rank order, as groups of equal score: {@code real[i]} wallet and {@code fake[i]} other scripts
     * in group i (best first). Immutable by convention.
     */
    public record Ranking(long[] real, long[] fake, double[] score, boolean[] notDecoy) {
        /** A ranking whose groups carry no scores (every candidate equally likely within the ranking's order). */
        public Ranking(long[] real, long[] fake) {
            this(real, fake, new double[real.length], new boolean[real.length]);
        }

        /**
         * The Shannon entropy in bits of the adversary's posterior over which candidate is the wallet's: uniform prior,
         * likelihood ratio e^score per candidate; candidates that cannot be decoys, when there are any, take all the
         * mass (they are certain to be no decoy). 2^entropy is the effective anonymity set. 0 with no candidates.
         */
        public double entropyBits() {
            boolean anySure = false;
            for (boolean b : notDecoy) {
                anySure |= b;
            }
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < real.length; i++) {
                if ((!anySure || notDecoy[i]) && real[i] + fake[i] > 0) {
                    max = Math.max(max, score[i]);
                }
            }
            if (max == Double.NEGATIVE_INFINITY) {
                return 0;
            }
            double z = 0;
            for (int i = 0; i < real.length; i++) {
                if (!anySure || notDecoy[i]) {
                    z += (real[i] + fake[i]) * Math.exp(score[i] - max);
                }
            }
            double h = 0;
            for (int i = 0; i < real.length; i++) {
                if (!anySure || notDecoy[i]) {
                    double p = Math.exp(score[i] - max) / z;
                    if (p > 0) {
                        h -= (real[i] + fake[i]) * p * Math.log(p);
                    }
                }
            }
            return Math.max(0, h / Math.log(2));
        }

        public long candidates() {
            long n = 0;
            for (int i = 0; i < real.length; i++) {
                n += real[i] + fake[i];
            }
            return n;
        }

        /**
         * P_h(j): the probability that the top j candidates are all the wallet's, ties broken uniformly at random.
         * 0 when there are fewer than j candidates or a better group holds another script.
         */
        public double ph(int j) {
            double p = 1;
            int need = j;
            for (int i = 0; i < real.length && need > 0; i++) {
                long size = real[i] + fake[i];
                if (need >= size) {
                    if (fake[i] > 0) {
                        return 0;
                    }
                    need -= size;
                } else {
                    // choose `need` of `size` uniformly; all real: C(real, need) / C(size, need)
                    for (int k = 0; k < need; k++) {
                        p *= (double) (real[i] - k) / (size - k);
                    }
                    if (p <= 0) {
                        return 0;
                    }
                    need = 0;
                }
            }
            return need > 0 ? 0 : Math.max(0, p);
        }
    }
}
