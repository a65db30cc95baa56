package org.blockfilter.privacylab.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;

/**
 * A synthetic block chain for the BIP 158 experiment, built deterministically from a seed, with the REAL basic
 * filter of every block ({@link GolombCodedSet} with BIP 158's P and M and a per-block random 16-byte key, as the
 * basic filter is keyed by the block hash).
 *
 * <p>Every block holds {@code E} distinct scripts (22-byte P2WPKH-shaped), E log-uniform in
 * [{@code minElements}, {@code maxElements}]: a share of them drawn uniformly from a pool of reused addresses, the
 * rest fresh single-use scripts, plus the scripts of wallets paid in that block. Wallets are born at a height
 * uniform in the first half of the chain; each of their N addresses appears (is paid) 1 + Geometric(1/2) times in
 * blocks uniform over [birth, tip]. Addresses with an identity (pool and wallets) are "explicit": their blocks are
 * recorded for the adversary. Fresh scripts are only counted.
 *
 * <p>Immutable after construction (arrays are not handed out mutably by convention: package use only).
 */
public final class SyntheticChain {
    /** The chain's shape. */
    public record Params(
            int blocks,
            int minElements,
            int maxElements,
            double reusedShare,
            int poolSize,
            int[] walletSizes,
            int walletsPerSize,
            int bytesPerElement) {}

    /** A wallet: N addresses with explicit ids {@code firstAddress .. firstAddress + n - 1}, synced from {@code birth}. */
    public record Wallet(int n, int birth, int firstAddress) {}

    final Params params;
    final long seed;
    /** Fresh single-use scripts per block. */
    final int[] fresh;
    /** Elements per block (fresh + distinct explicit). */
    final int[] elements;
    /** Distinct explicit address ids per block. */
    final int[][] explicitInBlock;
    /** Sorted distinct blocks per explicit address id. */
    final int[][] blocksOf;

    final GolombCodedSet[] filters;
    final List<Wallet> wallets;

    private SyntheticChain(
            Params params,
            long seed,
            int[] fresh,
            int[] elements,
            int[][] explicitInBlock,
            int[][] blocksOf,
            GolombCodedSet[] filters,
            List<Wallet> wallets) {
        this.params = params;
        this.seed = seed;
        this.fresh = fresh;
        this.elements = elements;
        this.explicitInBlock = explicitInBlock;
        this.blocksOf = blocksOf;
        this.filters = filters;
        this.wallets = wallets;
    }

    /** A 22-byte P2WPKH-shaped script (OP_0 PUSH20 hash) for an explicit address id; fresh scripts use ids from 2^40. */
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

    /** The scripts a wallet watches. */
    public List<byte[]> scripts(Wallet w) {
        List<byte[]> out = new ArrayList<>(w.n());
        for (int i = 0; i < w.n(); i++) {
            out.add(script(seed, w.firstAddress() + i));
        }
        return out;
    }

    public int blocks() {
        return params.blocks();
    }

    public GolombCodedSet filter(int block) {
        return filters[block];
    }

    /** The modelled size of a block in bytes: its elements times {@code bytesPerElement}. */
    public long blockBytes(int block) {
        return (long) elements[block] * params.bytesPerElement();
    }

    public List<Wallet> wallets() {
        return wallets;
    }

    /** Builds the chain; {@code progress} counts blocks. */
    public static SyntheticChain build(Params p, long seed, Progress progress) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int pool = p.poolSize();
        List<Wallet> wallets = new ArrayList<>();
        int nextId = pool;
        List<List<Integer>> walletPayments = new ArrayList<>();
        for (int i = 0; i < p.blocks(); i++) {
            walletPayments.add(new ArrayList<>());
        }
        for (int n : p.walletSizes()) {
            for (int w = 0; w < p.walletsPerSize(); w++) {
                int birth = rnd.nextInt(p.blocks() / 2);
                wallets.add(new Wallet(n, birth, nextId));
                for (int a = 0; a < n; a++) {
                    int times = 1;
                    while (rnd.nextBoolean()) {
                        times++;
                    }
                    for (int t = 0; t < times; t++) {
                        walletPayments
                                .get(birth + rnd.nextInt(p.blocks() - birth))
                                .add(nextId + a);
                    }
                }
                nextId += n;
            }
        }
        int explicitCount = nextId;
        int[] fresh = new int[p.blocks()];
        int[] elements = new int[p.blocks()];
        int[][] inBlock = new int[p.blocks()][];
        int[] appearances = new int[explicitCount];
        GolombCodedSet[] filters = new GolombCodedSet[p.blocks()];
        double lnMin = Math.log(p.minElements());
        double lnMax = Math.log(p.maxElements());
        long freshId = 1L << 40;
        for (int b = 0; b < p.blocks(); b++) {
            int e = (int) Math.round(Math.exp(lnMin + rnd.nextDouble() * (lnMax - lnMin)));
            int reused = (int) Math.round(e * p.reusedShare());
            int[] ids = new int[reused + walletPayments.get(b).size()];
            for (int i = 0; i < reused; i++) {
                ids[i] = rnd.nextInt(pool);
            }
            for (int i = 0; i < walletPayments.get(b).size(); i++) {
                ids[reused + i] = walletPayments.get(b).get(i);
            }
            ids = Arrays.stream(ids).sorted().distinct().toArray();
            inBlock[b] = ids;
            fresh[b] = e - reused;
            List<byte[]> items = new ArrayList<>(fresh[b] + ids.length);
            for (int i = 0; i < fresh[b]; i++) {
                items.add(script(seed, freshId++));
            }
            for (int id : ids) {
                items.add(script(seed, id));
                appearances[id]++;
            }
            elements[b] = items.size();
            byte[] key = new byte[Bip158.KEY_LENGTH];
            rnd.nextBytes(key);
            filters[b] = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items);
            if (progress != null) {
                progress.add(1);
            }
        }
        int[][] blocksOf = new int[explicitCount][];
        for (int id = 0; id < explicitCount; id++) {
            blocksOf[id] = new int[appearances[id]];
        }
        int[] fill = new int[explicitCount];
        for (int b = 0; b < p.blocks(); b++) {
            for (int id : inBlock[b]) {
                blocksOf[id][fill[id]++] = b;
            }
        }
        return new SyntheticChain(p, seed, fresh, elements, inBlock, blocksOf, filters, List.copyOf(wallets));
    }

    /** Blocks in [from, to) whose filter matches any of the wallet's scripts, with the real {@code matchAny}. */
    public int[] sync(Wallet w, int from) {
        List<byte[]> scripts = scripts(w);
        return java.util.stream.IntStream.range(from, blocks())
                .filter(b -> filters[b].matchAny(scripts))
                .toArray();
    }

    /** The blocks the wallet's addresses really appear in (sorted, distinct). */
    public int[] ownBlocks(Wallet w) {
        return java.util.stream.IntStream.range(w.firstAddress(), w.firstAddress() + w.n())
                .flatMap(id -> Arrays.stream(blocksOf[id]))
                .sorted()
                .distinct()
                .toArray();
    }

    /** The block's elements again (the same scripts its filter was built from): fresh ones, then explicit ones. */
    public List<byte[]> items(int block) {
        long freshId = 1L << 40;
        for (int b = 0; b < block; b++) {
            freshId += fresh[b];
        }
        List<byte[]> items = new ArrayList<>(elements[block]);
        for (int i = 0; i < fresh[block]; i++) {
            items.add(script(seed, freshId + i));
        }
        for (int id : explicitInBlock[block]) {
            items.add(script(seed, id));
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

    /** Distinct addresses (fresh + explicit) appearing in blocks [from, tip). */
    public long addressesFrom(int from) {
        long sum = 0;
        for (int b = from; b < blocks(); b++) {
            sum += fresh[b];
        }
        for (int[] bs : blocksOf) {
            if (bs.length > 0 && bs[bs.length - 1] >= from) {
                sum++;
            }
        }
        return sum;
    }
}
