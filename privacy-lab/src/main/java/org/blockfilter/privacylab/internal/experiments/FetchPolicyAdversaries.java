package org.blockfilter.privacylab.internal.experiments;

import java.util.Arrays;
import java.util.List;
import org.blockfilter.privacylab.internal.adversaries.ChangeAdversary;
import org.blockfilter.privacylab.internal.adversaries.DownloadAdversary;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.Wallets;
import org.blockfilter.wallet.sync.FetchPolicy;

/**
 * Experiment 8's adversaries, each a {@link DownloadAdversary} ranking of the chain's scripts from what one observer
 * saw of a wallet's two sessions ({@link FetchPolicyRun.Run}):
 *
 * <ul>
 *   <li>source 0 (one of the k sources): uniform; co-occurrence; + timing; + 2 sessions; the transaction graph; graph
 *   + timing + 2 sessions (experiment 5's adversaries);</li>
 *   <li>policy-aware (source 0, 2 sessions): knows the published adoption rules ({@link FetchPolicy#DECOY_MAX_BLOCKS},
 *   {@link FetchPolicy#CLUSTER_MAX_BLOCKS}): a script or cluster in more blocks of the range than a decoy may be in
 *   cannot be a decoy and ranks first;</li>
 *   <li>a Sybil holding s of the k sources (s = 2, 3; s = 1 is source 0, s = k sees every download): the union of
 *   what its sources served, ranked by the policy-aware transaction graph;</li>
 *   <li>a passive network observer of v1 (plaintext) P2P: every request to every source, policy-aware;</li>
 *   <li>a BIP 324 observer: sees only each message's byte count, so it knows a downloaded block only when no other
 *   block of the synced range has its size; then policy-aware on what it recovered, counting each candidate's blocks
 *   over the blocks it can tell (a wallet's block it cannot tell says nothing);</li>
 *   <li>change detection on top of common-input clustering ({@link ChangeAdversary}: the one-time-change heuristic's
 *   links in the observed blocks join clusters) for source 0 over 2 sessions, blind and policy-aware, and for the
 *   network observer (policy-aware);</li>
 *   <li>the maximum over all of them, per wallet.</li>
 * </ul>
 *
 * With {@code tor} (each block over a fresh Tor circuit from a peer drawn uniformly, anew in each session), sources
 * cannot link requests by address; the source and Sybil adversaries here link them by timing (a sync's requests come
 * in one burst after its filters), and combine sessions by union (a random peer per request repeats nothing); the
 * network and BIP 324 observers see Tor cells, so a block is known when its cell count is unique in the range.
 * Stateless.
 */
final class FetchPolicyAdversaries {
    private FetchPolicyAdversaries() {}

    /** The adversaries, in report order; the last is the maximum over the others. */
    static final List<String> NAMES = List.of(
            "uniform",
            "co-occurrence",
            "co-occurrence + timing",
            "co-occurrence + 2 sessions",
            "tx graph",
            "tx graph + timing + 2 sessions",
            "policy-aware co-occurrence + 2 sessions",
            "policy-aware tx graph + 2 sessions",
            "Sybil 2 of k: policy-aware tx graph",
            "Sybil 3 of k: policy-aware tx graph",
            "network observer (v1): co-occurrence",
            "network observer (v1): tx graph",
            "BIP 324 sizes: co-occurrence",
            "BIP 324 sizes: tx graph",
            "change linking + 2 sessions",
            "policy-aware change linking + 2 sessions",
            "network observer (v1): change linking",
            "max over adversaries");

    static final int MAX = NAMES.size() - 1;

    /** Tor relay cells carry 498 payload bytes; a block costs ceil((bytes + 24 message header) / 498) cells. */
    static final int TOR_CELL_PAYLOAD = 498;

    /** Per adversary ({@link #NAMES}): P_h(1) and the posterior entropy in bits; and the share of downloads known by size. */
    record Outcome(double[] ph1, double[] bits, double sizeIdentified) {}

    /** The thresholds a policy-aware adversary holds scripts and clusters to: {scriptMax, clusterMax}. */
    static int[] thresholds(FetchPolicy p) {
        if (p.clusters() > 0) {
            return new int[] {FetchPolicy.CLUSTER_MAX_BLOCKS, FetchPolicy.CLUSTER_MAX_BLOCKS};
        }
        if (p.decoys() > 0) {
            return new int[] {FetchPolicy.DECOY_MAX_BLOCKS, FetchPolicy.DECOY_MAX_BLOCKS};
        }
        return new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE};
    }

    /**
     * The blocks in [from, tip) that a size observer knows: those whose size (exact, or in Tor cells with
     * {@code cells}) no other block of the range has. Indexed by model block.
     */
    static boolean[] knownBySize(int[] sizes, int from, boolean cells) {
        java.util.Map<Integer, Integer> count = new java.util.HashMap<>();
        for (int b = from; b < sizes.length; b++) {
            count.merge(observedSize(sizes[b], cells), 1, Integer::sum);
        }
        boolean[] out = new boolean[sizes.length];
        for (int b = from; b < sizes.length; b++) {
            out[b] = count.get(observedSize(sizes[b], cells)) == 1;
        }
        return out;
    }

    private static int observedSize(int bytes, boolean cells) {
        return cells ? (bytes + 24 + TOR_CELL_PAYLOAD - 1) / TOR_CELL_PAYLOAD : bytes;
    }

    static Outcome attack(
            DownloadAdversary adv,
            ChangeAdversary change,
            int[] blockSizes,
            MainnetLikeChain.Wallet w,
            FetchPolicyExperiment.Setting s,
            FetchPolicyRun.Run run) {
        FetchPolicy policy = s.policy();
        int k = s.sources();
        boolean tor = s.tor();
        boolean spread = policy.spread() || tor;
        int from = w.birth();
        int lo = w.firstScript();
        int hi = lo + w.n();
        double pw1 = spread ? 1.0 / k : 1.0;
        double pw1Both = tor ? 1 - (1 - pw1) * (1 - pw1) : pw1;
        int[] o1 = inRange(run.served1()[0], from);
        int[] o1t = inRange(run.served1Timing()[0], from);
        int[] both = sessions(o1, inRange(run.served2()[0], from), tor);
        int[] bothT = sessions(o1t, inRange(run.served2Timing()[0], from), tor);
        DownloadAdversary.Result one = adv.rank(o1, from, lo, hi, pw1, true);
        DownloadAdversary.Result timing = Arrays.equals(o1t, o1) ? one : adv.rank(o1t, from, lo, hi, pw1, false);
        DownloadAdversary.Result two = adv.rank(both, from, lo, hi, pw1Both, false);
        DownloadAdversary.Result all = adv.rank(bothT, from, lo, hi, pw1Both, true);
        int[] th = thresholds(policy);
        DownloadAdversary.Result aware = adv.rank(both, from, lo, hi, pw1Both, true, th[0], th[1]);
        DownloadAdversary.Ranking[] r = new DownloadAdversary.Ranking[NAMES.size() - 1];
        r[0] = one.uniform();
        r[1] = one.cooccurrence();
        r[2] = timing.cooccurrence();
        r[3] = two.cooccurrence();
        r[4] = one.graph();
        r[5] = all.graph();
        r[6] = aware.cooccurrence();
        r[7] = aware.graph();
        for (int sy = 2; sy <= 3; sy++) {
            int held = Math.min(sy, k);
            double pw = spread ? (double) held / k : 1.0;
            double pwBoth = tor ? 1 - (1 - pw) * (1 - pw) : pw;
            int[] seen = sessions(
                    inRange(FetchPolicyRun.union(run.served1(), held), from),
                    inRange(FetchPolicyRun.union(run.served2(), held), from),
                    tor);
            r[6 + sy] = adv.rank(seen, from, lo, hi, pwBoth, true, th[0], th[1]).graph();
        }
        // Every download of the first session (a second repeats it, or with tor adds what the first drew elsewhere).
        int[] every = sessions(
                inRange(FetchPolicyRun.union(run.served1(), k), from),
                inRange(FetchPolicyRun.union(run.served2(), k), from),
                true);
        boolean[] exact = knownBySize(blockSizes, from, tor);
        int[] sized = Arrays.stream(every).filter(b -> exact[b]).toArray();
        DownloadAdversary.Result bip324 = adv.rank(sized, from, lo, hi, 1.0, true, th[0], th[1], exact);
        DownloadAdversary.Result net = tor ? bip324 : adv.rank(every, from, lo, hi, 1.0, true, th[0], th[1]);
        r[10] = net.cooccurrence();
        r[11] = net.graph();
        r[12] = bip324.cooccurrence();
        r[13] = bip324.graph();
        r[14] = change.rank(both, from, lo, hi, pw1Both, Integer.MAX_VALUE, Integer.MAX_VALUE, null);
        r[15] = change.rank(both, from, lo, hi, pw1Both, th[0], th[1], null);
        r[16] = tor
                ? change.rank(sized, from, lo, hi, 1.0, th[0], th[1], exact)
                : change.rank(every, from, lo, hi, 1.0, th[0], th[1], null);
        double[] ph = new double[NAMES.size()];
        double[] bits = new double[NAMES.size()];
        int best = 0;
        for (int a = 0; a < r.length; a++) {
            ph[a] = r[a].ph(1);
            bits[a] = r[a].entropyBits();
            if (ph[a] > ph[best] || (ph[a] == ph[best] && bits[a] < bits[best])) {
                best = a;
            }
        }
        ph[MAX] = ph[best];
        bits[MAX] = bits[best];
        double identified = every.length == 0 ? 1 : (double) sized.length / every.length;
        return new Outcome(ph, bits, identified);
    }

    /** Two sessions' observations combined: the union, or the intersection (what both sessions repeat). */
    static int[] sessions(int[] a, int[] b, boolean union) {
        if (!union) {
            return Bip158Experiment.intersect(a, b);
        }
        return java.util.stream.IntStream.concat(Arrays.stream(a), Arrays.stream(b))
                .sorted()
                .distinct()
                .toArray();
    }

    static int[] inRange(int[] blocks, int from) {
        return Arrays.stream(blocks).filter(b -> b >= from).toArray();
    }

    /**
     * Today's HD BIP 37 wallet on the same chain: bitcoinj 0.17's P2WPKH wallet ({@link Wallets.Model#TODAY}, N used
     * receive keys plus its lookahead) sends one filter at its default rate with a tweak it keeps (a persistent
     * tweak: every connection gets the same filter, so intersecting them removes nothing). The peer tests every
     * script of the synced range (its hash and, for a spend, its key: two tests); the wallet's N scripts always
     * match, each other script with the filter's rate r (bit density^k): 1 - (1 - r)^2. The adversary guesses a
     * matching script uniformly: P_h(1) = N / (N + F) with F = (scripts in range - N)(1 - (1 - r)^2), posterior
     * entropy log2(N + F). One {N, P_h(1), bits} per wallet.
     */
    static List<double[]> bip37Today(MainnetLikeChain chain, long seed) {
        List<double[]> out = new java.util.ArrayList<>();
        for (MainnetLikeChain.Wallet w : chain.wallets()) {
            Wallets.Client client = Wallets.client(Wallets.Model.TODAY, seed + w.index());
            client.growTo(w.n());
            org.blockfilter.filters.bloom.Bip37Filter f = org.blockfilter.filters.bloom.Bip37Filter.fromBitcoinj(
                    client.filter(Wallets.RATE_TODAY, (int) (seed + w.index())));
            double r = Math.pow(f.bitDensity(), f.hashFuncs());
            double q = 1 - (1 - r) * (1 - r);
            long scripts = Bip158Tables.scriptsFrom(chain, w.birth());
            double fp = Math.max(0, scripts - w.n()) * q;
            out.add(new double[] {w.n(), w.n() / (w.n() + fp), Math.log(w.n() + fp) / Math.log(2)});
        }
        return out;
    }
}
