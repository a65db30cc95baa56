package org.blockfilter.privacylab.internal.chains;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.filters.gcs.SipHash;
import org.blockfilter.privacylab.internal.report.Progress;
import org.blockfilter.privacylab.internal.universe.AddressUniverse;

/**
 * A synthetic chain with mainnet-like block statistics for the BIP 158 experiment, built deterministically from a
 * seed, with the REAL basic filter of every block ({@link GolombCodedSet}, BIP 158's P and M, a per-block 16-byte
 * key as the basic filter is keyed by the block hash). The model (every number is a parameter, see
 * {@link Params}):
 *
 * <ul>
 *   <li>Each block creates X_b single-use output scripts, X_b uniform in [X/2, 3X/2]. Each is spent after a delay
 *   log-uniform in [1, D] blocks; a spent output's script appears again, as the prevout, in the spending block's
 *   filter. Outputs created before block 0 are spent too: block b has X x P(delay > b) such spends.</li>
 *   <li>The inputs spent in a block are grouped into transactions: one input (60%) or 2 + Geometric(1/2) inputs
 *   (40%, mean 3). Inputs of one transaction form a common-input cluster.</li>
 *   <li>Each block also draws R scripts from a pool of reused addresses with Zipf(s) popularity (exchanges and
 *   services pay and are paid in many blocks).</li>
 *   <li>Wallets: N addresses, born at a height uniform in the first half of the chain. Each address is paid
 *   1 + Geometric(1/2) times (mean 2) in blocks uniform over [birth, tip); each payment is spent after the same
 *   log-uniform delay, and with probability 1/2 (repeated, up to 3 inputs) together with another of the wallet's
 *   unspent outputs (common inputs). Change outputs are not modelled separately.</li>
 * </ul>
 *
 * Script ids: pool {@code [0, P)}, then the wallets' addresses in wallet order, then single-use scripts.
 *
 * <p>{@link #build} is this single-use-output model (no experiment's chain now: the tests' small chains). Experiments
 * 5 and 8 run on {@link ProfileShapedChain}: the same script-level representation, its blocks drawn from the mainnet-profile
 * workload's distributions ({@code org.blockfilter.regtest.mainnet.MainnetStatistics}). Immutable after
 * construction; package use only.
 */
public final class MainnetLikeChain {
    /**
     * The chain's shape.
     *
     * @param blocks          chain length
     * @param outputsPerBlock X, mean single-use outputs per block
     * @param poolDraws       R, Zipf draws from the reuse pool per block
     * @param poolSize        P, reused addresses
     * @param zipfExponent    s of the pool's Zipf popularity
     * @param maxSpendDelay   D, the longest spend delay in blocks
     * @param walletSizes     N of each wallet group
     * @param walletsPerSize  wallets in each group
     * @param bytesPerElement modelled block bytes per filter element
     */
    public record Params(
            int blocks,
            int outputsPerBlock,
            int poolDraws,
            int poolSize,
            double zipfExponent,
            int maxSpendDelay,
            int[] walletSizes,
            int[] walletsPerSize,
            int bytesPerElement) {}

    /** A wallet: N scripts {@code firstScript .. firstScript + n - 1}, synced from {@code birth}. */
    public record Wallet(int index, int n, int birth, int firstScript) {}

    public final Params params;
    public final long seed;
    public final Occurrences occ;
    final GolombCodedSet[] filters;
    final List<Wallet> wallets;
    /** Transactions' input groups of wallets (size > 1), for the report. */
    public final int walletMultiInputSpends;

    MainnetLikeChain(
            Params params,
            long seed,
            Occurrences occ,
            GolombCodedSet[] filters,
            List<Wallet> wallets,
            int walletMultiInputSpends) {
        this.params = params;
        this.seed = seed;
        this.occ = occ;
        this.filters = filters;
        this.wallets = wallets;
        this.walletMultiInputSpends = walletMultiInputSpends;
    }

    /** A 22-byte P2WPKH-shaped script (OP_0 PUSH20 hash) for a script id. */
    public static byte[] script(long seed, long id) {
        byte[] s = new byte[22];
        s[0] = 0x00;
        s[1] = 0x14;
        long h = AddressUniverse.mix(seed ^ AddressUniverse.mix(id + 0x5DEECE66DL));
        for (int i = 0; i < 20; i++) {
            if (i % 8 == 0 && i > 0) {
                h = AddressUniverse.mix(h + i);
            }
            s[2 + i] = (byte) (h >>> (8 * (i % 8)));
        }
        return s;
    }

    public int blocks() {
        return params.blocks();
    }

    public GolombCodedSet filter(int block) {
        return filters[block];
    }

    public List<Wallet> wallets() {
        return wallets;
    }

    /** The modelled size of a block: its elements times {@code bytesPerElement}. */
    public long blockBytes(int block) {
        return (long) occ.elements(block) * params.bytesPerElement();
    }

    /** The scripts a wallet watches. */
    public List<byte[]> scripts(Wallet w) {
        List<byte[]> out = new ArrayList<>(w.n());
        for (int i = 0; i < w.n(); i++) {
            out.add(script(seed, w.firstScript() + i));
        }
        return out;
    }

    /** The block's elements (the scripts its filter was built from). */
    public List<byte[]> items(int block) {
        List<byte[]> items = new ArrayList<>(occ.elements(block));
        for (int i = occ.blockStart[block]; i < occ.blockStart[block + 1]; i++) {
            items.add(script(seed, occ.blockScripts[i]));
        }
        return items;
    }

    /** Total filter bytes for blocks [from, tip). */
    public long filterBytes(int from) {
        long sum = 0;
        for (int b = from; b < blocks(); b++) {
            sum += filters[b].encodedLength();
        }
        return sum;
    }

    /** Blocks in [birth, tip) whose filter matches any of the wallet's scripts, with the filters' own {@code matchAny}. */
    public int[] sync(Wallet w) {
        List<byte[]> scripts = scripts(w);
        return IntStream.range(w.birth(), blocks())
                .filter(b -> filters[b].matchAny(scripts))
                .toArray();
    }

    /**
     * The same as {@link #sync} for every wallet, faster: each filter is decoded once and every wallet's scripts
     * are hashed with its key and looked up (what {@code matchAny} does). Index i is wallet i.
     */
    public int[][] syncAll(int threads) {
        long[][] values = new long[blocks()][];
        long[][] keys = new long[blocks()][];
        IntStream.range(0, blocks()).parallel().forEach(b -> {
            values[b] = filters[b].values();
            byte[] key = filters[b].key();
            keys[b] = new long[] {SipHash.keyHalf(key, 0), SipHash.keyHalf(key, 8)};
        });
        int[][] out = new int[wallets.size()][];
        IntStream.range(0, wallets.size()).parallel().forEach(i -> {
            Wallet w = wallets.get(i);
            List<byte[]> scripts = scripts(w);
            List<Integer> hit = new ArrayList<>();
            for (int b = w.birth(); b < blocks(); b++) {
                long range = (long) values[b].length * Bip158.BASIC_M;
                for (byte[] s : scripts) {
                    long v = GolombCodedSet.hashToRange(SipHash.hash24(keys[b][0], keys[b][1], s), range);
                    if (Arrays.binarySearch(values[b], v) >= 0) {
                        hit.add(b);
                        break;
                    }
                }
            }
            out[i] = hit.stream().mapToInt(Integer::intValue).toArray();
        });
        return out;
    }

    /** The blocks the wallet's scripts really appear in (sorted, distinct). */
    public int[] ownBlocks(Wallet w) {
        return IntStream.range(w.firstScript(), w.firstScript() + w.n())
                .flatMap(s -> Arrays.stream(occ.scriptBlocks, occ.scriptStart[s], occ.scriptStart[s + 1]))
                .sorted()
                .distinct()
                .toArray();
    }

    private static double logUniform(SplittableRandom rnd, double max) {
        return Math.exp(rnd.nextDouble() * Math.log(max));
    }

    private static int geometricHalf(SplittableRandom rnd) {
        int n = 0;
        while (rnd.nextBoolean()) {
            n++;
        }
        return n;
    }

    /** A growable int list. */
    private static final class Ints {
        int[] a = new int[8];
        int n;

        void add(int x) {
            if (n == a.length) {
                a = Arrays.copyOf(a, 2 * n);
            }
            a[n++] = x;
        }
    }

    /**
     * A chain given block by block (for tests with hand-computed answers): block b holds the script ids
     * {@code blocks[b]}; {@code groups} are common-input clusters; wallets as given. Filters are built as in
     * {@link #build}; {@code bytesPerElement} 250.
     */
    public static MainnetLikeChain of(long seed, int[][] blocks, int[][] groups, List<Wallet> wallets) {
        int scripts = 0;
        int[] start = new int[blocks.length + 1];
        for (int b = 0; b < blocks.length; b++) {
            int[] sorted = Arrays.stream(blocks[b]).sorted().distinct().toArray();
            blocks[b] = sorted;
            start[b + 1] = start[b] + sorted.length;
            for (int s : sorted) {
                scripts = Math.max(scripts, s + 1);
            }
        }
        int[] blockScripts = new int[start[blocks.length]];
        for (int b = 0; b < blocks.length; b++) {
            System.arraycopy(blocks[b], 0, blockScripts, start[b], blocks[b].length);
        }
        int[] parent = Occurrences.identity(scripts);
        for (int[] g : groups) {
            for (int i = 1; i < g.length; i++) {
                Occurrences.union(parent, g[0], g[i]);
            }
        }
        Occurrences occ = Occurrences.of(scripts, start, blockScripts, parent);
        GolombCodedSet[] filters = new GolombCodedSet[blocks.length];
        for (int b = 0; b < blocks.length; b++) {
            List<byte[]> items = new ArrayList<>();
            for (int s : blocks[b]) {
                items.add(script(seed, s));
            }
            filters[b] = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, new byte[Bip158.KEY_LENGTH], items);
        }
        Params p = new Params(blocks.length, 0, 0, 0, 1.0, 1, new int[0], new int[0], 250);
        return new MainnetLikeChain(p, seed, occ, filters, List.copyOf(wallets), 0);
    }

    /** Builds the chain; {@code progress} counts blocks (twice: structure, then filters). */
    public static MainnetLikeChain build(Params p, long seed, Progress progress) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int blocks = p.blocks();
        Ints[] at = new Ints[blocks];
        Ints[] spendAt = new Ints[blocks];
        for (int b = 0; b < blocks; b++) {
            at[b] = new Ints();
            spendAt[b] = new Ints();
        }
        List<int[]> groups = new ArrayList<>();
        // Wallets.
        List<Wallet> wallets = new ArrayList<>();
        int next = p.poolSize();
        int multi = 0;
        for (int g = 0; g < p.walletSizes().length; g++) {
            for (int w = 0; w < p.walletsPerSize()[g]; w++) {
                int n = p.walletSizes()[g];
                int birth = rnd.nextInt(blocks / 2);
                wallets.add(new Wallet(wallets.size(), n, birth, next));
                List<int[]> utxos = new ArrayList<>(); // {script, paid, spend}
                for (int a = 0; a < n; a++) {
                    int times = 1 + geometricHalf(rnd);
                    for (int t = 0; t < times; t++) {
                        int paid = birth + rnd.nextInt(blocks - birth);
                        int spend = paid + (int) Math.round(logUniform(rnd, p.maxSpendDelay()));
                        utxos.add(new int[] {next + a, paid, spend});
                        at[paid].add(next + a);
                    }
                }
                utxos.sort((x, y) -> Integer.compare(x[2], y[2]));
                boolean[] spent = new boolean[utxos.size()];
                for (int u = 0; u < utxos.size(); u++) {
                    int s = utxos.get(u)[2];
                    if (spent[u] || s >= blocks) {
                        continue;
                    }
                    spent[u] = true;
                    List<Integer> inputs = new ArrayList<>(List.of(utxos.get(u)[0]));
                    for (int v = u + 1; v < utxos.size() && inputs.size() < 3; v++) {
                        if (!spent[v] && utxos.get(v)[1] < s) {
                            if (!rnd.nextBoolean()) {
                                break;
                            }
                            spent[v] = true;
                            inputs.add(utxos.get(v)[0]);
                        }
                    }
                    for (int in : inputs) {
                        at[s].add(in);
                    }
                    if (inputs.size() > 1) {
                        multi++;
                        groups.add(inputs.stream().mapToInt(Integer::intValue).toArray());
                    }
                }
                next += n;
            }
        }
        // Background: single-use outputs and their spends, spends of pre-chain outputs, Zipf pool draws.
        double[] zipfCdf = new double[p.poolSize()];
        double acc = 0;
        for (int i = 0; i < p.poolSize(); i++) {
            acc += Math.pow(i + 1, -p.zipfExponent());
            zipfCdf[i] = acc;
        }
        double lnD = Math.log(p.maxSpendDelay());
        for (int b = 0; b < blocks; b++) {
            int x = (int) Math.round(p.outputsPerBlock() * (0.5 + rnd.nextDouble()));
            for (int i = 0; i < x; i++) {
                int id = next++;
                at[b].add(id);
                int s = b + (int) Math.round(logUniform(rnd, p.maxSpendDelay()));
                if (s < blocks) {
                    spendAt[s].add(id);
                }
            }
            double older = b == 0 ? 1 : Math.max(0, 1 - Math.log(b) / lnD);
            int pre = (int) Math.round(p.outputsPerBlock() * older * (0.5 + rnd.nextDouble()));
            for (int i = 0; i < pre; i++) {
                spendAt[b].add(next++);
            }
            for (int i = 0; i < p.poolDraws(); i++) {
                int k = Arrays.binarySearch(zipfCdf, rnd.nextDouble() * acc);
                at[b].add(k >= 0 ? k : Math.min(p.poolSize() - 1, -k - 1));
            }
        }
        int scripts = next;
        int[] parent = Occurrences.identity(scripts);
        for (int[] g : groups) {
            for (int i = 1; i < g.length; i++) {
                Occurrences.union(parent, g[0], g[i]);
            }
        }
        int[] start = new int[blocks + 1];
        int[][] perBlock = new int[blocks][];
        for (int b = 0; b < blocks; b++) {
            Ints sp = spendAt[b];
            // shuffle the spends, then group consecutive ones into transactions
            for (int i = sp.n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = sp.a[i];
                sp.a[i] = sp.a[j];
                sp.a[j] = t;
            }
            for (int i = 0; i < sp.n; ) {
                int size = rnd.nextDouble() < 0.6 ? 1 : 2 + geometricHalf(rnd);
                for (int j = i + 1; j < Math.min(sp.n, i + size); j++) {
                    Occurrences.union(parent, sp.a[i], sp.a[j]);
                }
                i += size;
            }
            int[] all = new int[at[b].n + sp.n];
            System.arraycopy(at[b].a, 0, all, 0, at[b].n);
            System.arraycopy(sp.a, 0, all, at[b].n, sp.n);
            perBlock[b] = Arrays.stream(all).sorted().distinct().toArray();
            start[b + 1] = start[b] + perBlock[b].length;
            at[b] = null;
            spendAt[b] = null;
            if (progress != null) {
                progress.add(1);
            }
        }
        int[] blockScripts = new int[start[blocks]];
        for (int b = 0; b < blocks; b++) {
            System.arraycopy(perBlock[b], 0, blockScripts, start[b], perBlock[b].length);
            perBlock[b] = null;
        }
        Occurrences occ = Occurrences.of(scripts, start, blockScripts, parent);
        return new MainnetLikeChain(p, seed, occ, filters(occ, seed, progress), List.copyOf(wallets), multi);
    }

    /** The real basic filter of every block of {@code occ}, keyed per block from {@code seed}; counts blocks. */
    static GolombCodedSet[] filters(Occurrences occ, long seed, Progress progress) {
        int blocks = occ.blocks;
        GolombCodedSet[] filters = new GolombCodedSet[blocks];
        IntStream.range(0, blocks).parallel().forEach(b -> {
            List<byte[]> items = new ArrayList<>(occ.elements(b));
            for (int i = occ.blockStart[b]; i < occ.blockStart[b + 1]; i++) {
                items.add(script(seed, occ.blockScripts[i]));
            }
            byte[] key = new byte[Bip158.KEY_LENGTH];
            new SplittableRandom(AddressUniverse.mix(seed ^ (0x9E3779B97F4A7C15L * (b + 1)))).nextBytes(key);
            filters[b] = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items);
            if (progress != null) {
                progress.add(1);
            }
        });
        return filters;
    }
}
