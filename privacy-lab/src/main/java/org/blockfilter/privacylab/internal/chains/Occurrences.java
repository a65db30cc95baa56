package org.blockfilter.privacylab.internal.chains;

import java.util.Arrays;

/**
 * Which script appears in which block, and which scripts the transaction graph ties together: what a full node
 * knows about a chain, indexed for the download adversaries ({@code DownloadAdversary}).
 *
 * <p>Scripts are ints {@code 0 .. scripts-1}. Compressed-row arrays: the distinct sorted scripts of block b are
 * {@code blockScripts[blockStart[b] .. blockStart[b+1])}; the distinct sorted blocks of script s are
 * {@code scriptBlocks[scriptStart[s] .. scriptStart[s+1])}. Clusters are the common-input heuristic's classes
 * (scripts spent together in one transaction, closed transitively): {@code cluster[s]} is the cluster id, its
 * members and its distinct blocks are in the same compressed-row form. Immutable; arrays are package-private and
 * never changed after {@link #of}.
 */
public final class Occurrences {
    public final int blocks;
    public final int scripts;
    public final int[] blockStart;
    public final int[] blockScripts;
    public final int[] scriptStart;
    public final int[] scriptBlocks;
    public final int[] cluster;
    public final int clusters;
    public final int[] clusterStart;
    public final int[] clusterMembers;
    public final int[] clusterBlockStart;
    public final int[] clusterBlocks;

    private Occurrences(
            int blocks,
            int scripts,
            int[] blockStart,
            int[] blockScripts,
            int[] scriptStart,
            int[] scriptBlocks,
            int[] cluster,
            int clusters,
            int[] clusterStart,
            int[] clusterMembers,
            int[] clusterBlockStart,
            int[] clusterBlocks) {
        this.blocks = blocks;
        this.scripts = scripts;
        this.blockStart = blockStart;
        this.blockScripts = blockScripts;
        this.scriptStart = scriptStart;
        this.scriptBlocks = scriptBlocks;
        this.cluster = cluster;
        this.clusters = clusters;
        this.clusterStart = clusterStart;
        this.clusterMembers = clusterMembers;
        this.clusterBlockStart = clusterBlockStart;
        this.clusterBlocks = clusterBlocks;
    }

    /**
     * Indexes a chain.
     *
     * @param scripts     the number of script ids
     * @param blockStart  offsets into {@code blockScripts}, length blocks + 1
     * @param blockScripts the scripts of every block, distinct and sorted within a block
     * @param parent      union-find parents of the common-input relation (changed: paths are compressed)
     */
    static Occurrences of(int scripts, int[] blockStart, int[] blockScripts, int[] parent) {
        int blocks = blockStart.length - 1;
        int[] scriptStart = new int[scripts + 1];
        for (int i = 0; i < blockStart[blocks]; i++) {
            scriptStart[blockScripts[i] + 1]++;
        }
        for (int s = 0; s < scripts; s++) {
            scriptStart[s + 1] += scriptStart[s];
        }
        int[] scriptBlocks = new int[blockStart[blocks]];
        int[] fill = Arrays.copyOf(scriptStart, scripts);
        for (int b = 0; b < blocks; b++) {
            for (int i = blockStart[b]; i < blockStart[b + 1]; i++) {
                scriptBlocks[fill[blockScripts[i]]++] = b;
            }
        }
        // Clusters: roots renumbered densely in script order.
        int[] cluster = new int[scripts];
        int[] rootId = new int[scripts];
        Arrays.fill(rootId, -1);
        int clusters = 0;
        for (int s = 0; s < scripts; s++) {
            int r = find(parent, s);
            if (rootId[r] < 0) {
                rootId[r] = clusters++;
            }
            cluster[s] = rootId[r];
        }
        int[] clusterStart = new int[clusters + 1];
        for (int s = 0; s < scripts; s++) {
            clusterStart[cluster[s] + 1]++;
        }
        for (int c = 0; c < clusters; c++) {
            clusterStart[c + 1] += clusterStart[c];
        }
        int[] members = new int[scripts];
        int[] cfill = Arrays.copyOf(clusterStart, clusters);
        for (int s = 0; s < scripts; s++) {
            members[cfill[cluster[s]]++] = s;
        }
        // Distinct blocks per cluster: the union of its members' blocks.
        int[] clusterBlockStart = new int[clusters + 1];
        int[] tmp = new int[16];
        int total = 0;
        int[][] lists = new int[clusters][];
        for (int c = 0; c < clusters; c++) {
            int from = clusterStart[c];
            int to = clusterStart[c + 1];
            if (to - from == 1) {
                int s = members[from];
                total += scriptStart[s + 1] - scriptStart[s];
                continue;
            }
            int n = 0;
            for (int i = from; i < to; i++) {
                int s = members[i];
                for (int j = scriptStart[s]; j < scriptStart[s + 1]; j++) {
                    if (n == tmp.length) {
                        tmp = Arrays.copyOf(tmp, 2 * n);
                    }
                    tmp[n++] = scriptBlocks[j];
                }
            }
            int[] u = Arrays.stream(tmp, 0, n).sorted().distinct().toArray();
            lists[c] = u;
            total += u.length;
        }
        int[] clusterBlocks = new int[total];
        int at = 0;
        for (int c = 0; c < clusters; c++) {
            clusterBlockStart[c] = at;
            if (lists[c] != null) {
                System.arraycopy(lists[c], 0, clusterBlocks, at, lists[c].length);
                at += lists[c].length;
            } else {
                int s = members[clusterStart[c]];
                int len = scriptStart[s + 1] - scriptStart[s];
                System.arraycopy(scriptBlocks, scriptStart[s], clusterBlocks, at, len);
                at += len;
            }
        }
        clusterBlockStart[clusters] = at;
        return new Occurrences(
                blocks,
                scripts,
                blockStart,
                blockScripts,
                scriptStart,
                scriptBlocks,
                cluster,
                clusters,
                clusterStart,
                members,
                clusterBlockStart,
                clusterBlocks);
    }

    /** Indexes hand-written blocks (tests): {@code blocks[b]} lists scripts, {@code spentTogether} the input groups. */
    public static Occurrences of(int scripts, int[][] blocks, int[][] spentTogether) {
        int[] start = new int[blocks.length + 1];
        for (int b = 0; b < blocks.length; b++) {
            start[b + 1] = start[b] + (int) Arrays.stream(blocks[b]).distinct().count();
        }
        int[] all = new int[start[blocks.length]];
        for (int b = 0; b < blocks.length; b++) {
            int[] d = Arrays.stream(blocks[b]).sorted().distinct().toArray();
            System.arraycopy(d, 0, all, start[b], d.length);
        }
        int[] parent = identity(scripts);
        for (int[] g : spentTogether) {
            for (int i = 1; i < g.length; i++) {
                union(parent, g[0], g[i]);
            }
        }
        return of(scripts, start, all, parent);
    }

    static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    static int find(int[] parent, int s) {
        int r = s;
        while (parent[r] != r) {
            r = parent[r];
        }
        while (parent[s] != r) {
            int next = parent[s];
            parent[s] = r;
            s = next;
        }
        return r;
    }

    static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    /** Distinct elements (scripts) of block b. */
    public int elements(int b) {
        return blockStart[b + 1] - blockStart[b];
    }

    /** How many of the sorted {@code list[from..to)} are at or above {@code height}. */
    public static int countFrom(int[] list, int from, int to, int height) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (list[mid] < height) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return to - lo;
    }
}
