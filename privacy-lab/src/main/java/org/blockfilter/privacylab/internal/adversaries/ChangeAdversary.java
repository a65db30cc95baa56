package org.blockfilter.privacylab.internal.adversaries;

import java.util.Arrays;
import org.blockfilter.privacylab.internal.chains.ChangeLinks;
import org.blockfilter.privacylab.internal.chains.Occurrences;

/**
 * Change detection on top of common-input clustering: the transaction-graph adversary of {@link DownloadAdversary}
 * whose clusters also join each transaction's inputs to the output its change heuristic names, in the transactions of
 * the blocks it saw downloaded (Meiklejohn et al. 2013, "A Fistful of Bitcoins", the one-time change address
 * heuristic; peel chains, Kappos et al. 2022, are chains of such links).
 *
 * <p>The change of a transaction is the output the one-time-change rule ({@link ChangeLinks#oneTimeChange}) names.
 * Its script is joined to the cluster of the transaction's inputs (closed transitively with the common-input
 * clusters), only for transactions of the observed blocks: the wallet's own transactions are there, and a
 * link drawn elsewhere could only tie a candidate to blocks the adversary did not see downloaded. Every member of a
 * joined cluster is then ranked with it by the transaction graph's score ({@link DownloadAdversary}), policy-aware
 * thresholds and size-observer visibility included.
 *
 * <p>Refinements not applied: the script-type rule (change has the inputs' script type) cannot act, since every
 * script of the lab's chains is P2WPKH; Meiklejohn's wait for the address never to be paid again changes nothing,
 * since the model pays a fresh script only once.
 *
 * <p>What it gets wrong (false change links, each a merge of two owners' clusters): a payment to a fresh address
 * whose other outputs go to addresses seen before (a payment to a new payee with change to a reused address, or a
 * transaction without change paying one new and some known payees) names the payee as change. In the lab's chain a
 * background transaction's outputs are all payees (its change, when it has one, goes back to the first input's
 * script), so every link the heuristic draws in one is false; so is a link in a wallet's transaction that has no fresh
 * change. A false link into a wallet's cluster adds a foreign script and its blocks, which the adversary did not see
 * downloaded, and can rule the cluster out. Not modelled: payments to the wallet are outputs of no transaction in the
 * lab's chain, so the commonest false link on mainnet for a fresh-address wallet (its receipt taken for the payer's
 * change) does not occur here. Experiment 8 reports the heuristic's precision against the chain's ground truth
 * ({@link ChangeLinks.Truth}).
 *
 * <p>Not thread-safe (scratch arrays); one instance per thread. Nothing is null.
 */
public final class ChangeAdversary {
    private final Occurrences occ;
    private final ChangeLinks links;
    private final int[] parent;
    private final int[] stamp;
    private final int[] blockStamp;
    private final int[] groupStamp;
    private final int[] groupIndex;
    private int epoch;
    private int[] touched = new int[1 << 16];

    public ChangeAdversary(Occurrences occ, ChangeLinks links) {
        if (links.blocks() != occ.blocks) {
            throw new IllegalArgumentException(
                    "change links for " + links.blocks() + " blocks, chain of " + occ.blocks);
        }
        this.occ = occ;
        this.links = links;
        this.parent = new int[occ.clusters];
        this.stamp = new int[occ.clusters];
        this.groupStamp = new int[occ.clusters];
        this.groupIndex = new int[occ.clusters];
        this.blockStamp = new int[occ.blocks];
    }

    /**
     * Ranks the chain's scripts in the observed blocks by their change-joined clusters; arguments as
     * {@link DownloadAdversary#rank(int[], int, int, int, double, boolean, int, int, boolean[])}.
     */
    public DownloadAdversary.Ranking rank(
            int[] observed,
            int from,
            int walletLo,
            int walletHi,
            double pWallet,
            int scriptMax,
            int clusterMax,
            boolean[] visible) {
        epoch++;
        for (int b : observed) {
            blockStamp[b] = epoch;
        }
        // Touched base clusters: those with a script in an observed block.
        int n = 0;
        for (int b : observed) {
            for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
                int c = occ.cluster[occ.blockScripts[i]];
                if (stamp[c] != epoch) {
                    stamp[c] = epoch;
                    parent[c] = c;
                    if (n == touched.length) {
                        touched = Arrays.copyOf(touched, 2 * n);
                    }
                    touched[n++] = c;
                }
            }
        }
        // Change links of the observed blocks join clusters (both ends are scripts of the block: touched).
        for (int b : observed) {
            for (int i = links.blockStart[b]; i < links.blockStart[b + 1]; i++) {
                union(occ.cluster[links.input[i]], occ.cluster[links.change[i]]);
            }
        }
        // Groups: touched clusters by root, each member's blocks gathered.
        int groups = 0;
        int[] groupOf = new int[n];
        for (int k = 0; k < n; k++) {
            int r = find(touched[k]);
            if (groupStamp[r] != epoch) {
                groupStamp[r] = epoch;
                groupIndex[r] = groups++;
            }
            groupOf[k] = groupIndex[r];
        }
        int[] real = new int[groups];
        int[] size = new int[groups];
        int[] members = new int[groups];
        int[][] blocks = new int[groups][];
        int[] fill = new int[groups];
        for (int k = 0; k < n; k++) {
            int c = touched[k];
            int g = groupOf[k];
            members[g]++;
            for (int i = occ.clusterStart[c]; i < occ.clusterStart[c + 1]; i++) {
                int s = occ.clusterMembers[i];
                size[g]++;
                if (s >= walletLo && s < walletHi) {
                    real[g]++;
                }
            }
            int len = occ.clusterBlockStart[c + 1] - occ.clusterBlockStart[c];
            if (blocks[g] == null) {
                blocks[g] = new int[Math.max(4, len)];
            } else if (fill[g] + len > blocks[g].length) {
                blocks[g] = Arrays.copyOf(blocks[g], Math.max(2 * blocks[g].length, fill[g] + len));
            }
            System.arraycopy(occ.clusterBlocks, occ.clusterBlockStart[c], blocks[g], fill[g], len);
            fill[g] += len;
        }
        int range = DownloadAdversary.rangeBlocks(occ, from, visible);
        double pOther = Math.min(0.999999, (double) observed.length / Math.max(1, range));
        double pW = Math.max(pWallet, pOther);
        DownloadAdversary.Tally tally = new DownloadAdversary.Tally();
        for (int g = 0; g < groups; g++) {
            int[] list = blocks[g];
            int len = fill[g];
            if (members[g] > 1) {
                list = Arrays.stream(list, 0, len).sorted().distinct().toArray();
                len = list.length;
            }
            int t = DownloadAdversary.count(list, 0, len, from, visible);
            int o = 0;
            for (int i = 0; i < len; i++) {
                if (blockStamp[list[i]] == epoch) {
                    o++;
                }
            }
            tally.add(o, t, real[g], size[g] - real[g], t > (size[g] == 1 ? scriptMax : clusterMax));
        }
        return tally.ranking(pW, pOther, false);
    }

    private int find(int c) {
        int r = c;
        while (parent[r] != r) {
            r = parent[r];
        }
        while (parent[c] != r) {
            int next = parent[c];
            parent[c] = r;
            c = next;
        }
        return r;
    }

    private void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }
}
