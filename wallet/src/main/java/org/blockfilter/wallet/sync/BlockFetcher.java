package org.blockfilter.wallet.sync;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.wallet.descriptor.DescriptorKey;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.source.ChainSource;

/**
 * Downloads blocks as a {@link FetchPolicy} says: which source, in what order, with what pauses, and which decoy
 * blocks beside the matched ones. Decoys are derived from a per-wallet seed (a hash of the wallet's account keys,
 * which never leave the wallet) and the chain, and every decision about a matched block reads only heights up to it
 * and the decoys adopted before it (kept with the wallet as {@link DecoyGroup}s). So a wallet synced block by block
 * downloads the same blocks as one sync over the whole range (blocks an earlier sync fetched are fetched again when a
 * later sync needs them: none is kept), and two syncs of the same range download the same decoys. Not thread-safe; one per sync.
 */
final class BlockFetcher {
    /** Candidate decoy scripts considered per seed block. */
    static final int CANDIDATES = 8;
    /** How far below its seed block a candidate decoy script must be absent from the filters. */
    static final int LOOKBACK = 2016;
    /** A matched block's seed blocks are among this many heights below it (the size of a filter batch). */
    static final int SEED_WINDOW = Bip157.MAX_CFILTERS;

    private final SyncState state;
    private final SourcePool pool;
    private final FetchPolicy policy;
    private final LongConsumer pause;
    private final byte[] seed;
    private final SplittableRandom order = new SplittableRandom(new SecureRandom().nextLong());
    private final List<DecoyGroup> adopted = new ArrayList<>();
    /** Heights downloaded in this sync (a look-back for adopted decoys does not fetch them again). */
    private final Set<Integer> fetched = new HashSet<>();

    private int decoyBlocks;

    BlockFetcher(SyncState state, SourcePool pool, FetchPolicy policy, LongConsumer pause) {
        this.state = state;
        this.pool = pool;
        this.policy = policy;
        this.pause = pause;
        this.seed = state.decoySeed();
    }

    /**
     * The wallet's decoy seed: SHA-256 of a tag and, per account in account order, its kind and its keys (each
     * extended public key as xpub/tpub without its parent, in the order the descriptor writes them). Only the keys:
     * not the descriptor's text, so the seed stays when the account is written another way (origin, checksum, one
     * multipath descriptor or two).
     */
    static byte[] seed(List<HdAccount> accounts) {
        MessageDigest d = sha256();
        d.update("blockfilter/fetch-policy/v1".getBytes(StandardCharsets.UTF_8));
        for (HdAccount a : accounts) {
            d.update(a.kind().name().getBytes(StandardCharsets.UTF_8));
            Network network = a.descriptor().network();
            for (DescriptorKey k : a.descriptor().keys()) {
                String key = k.extendedKey()
                        .map(x -> x.dropPrivateBytes().dropParent().serializePubB58(network))
                        .orElseGet(k::toString);
                d.update(key.getBytes(StandardCharsets.UTF_8));
            }
        }
        return d.digest();
    }

    /** Decoy blocks downloaded so far in this sync (verified and discarded). */
    int decoyBlocks() {
        return decoyBlocks;
    }

    /** The decoy groups adopted so far in this sync, in height order of the blocks they hide. */
    List<DecoyGroup> adopted() {
        return List.copyOf(adopted);
    }

    /** What {@link #fetchBatch} downloaded: the matched blocks by height, and the decoy groups it adopted. */
    record Batch(Map<Integer, Block> blocks, List<DecoyGroup> adopted) {}

    /** One seed block: the matched block it hides, whether it offers a cluster, which of the K, and its height. */
    private record Seed(int matched, boolean cluster, int i, int height) {}

    /**
     * Downloads the matched blocks of the filter batch {@code lo..hi} with their decoys. The requests are the matched
     * blocks, the batch's blocks matching a {@link DecoyGroup} adopted below them, and K seed blocks per matched block
     * (uniform over the {@link #SEED_WINDOW} heights below it, not below the lowest scanned height, by a hash of the
     * wallet seed, the matched block's hash and i), shuffled if the policy says. When a seed block arrives, it offers
     * a decoy script ({@code decoys=K}) or a cluster ({@code clusters=K}), judged on the filters from its look-back
     * window up to the matched block; the adopted scripts' blocks from that window up to {@code hi} not yet requested
     * are added to the requests still to come, at random places (the blocks already scanned too: the wallet looks
     * back when it finds a script of its own). The adopted groups are returned for the wallet to keep.
     *
     * @param filters the verified filter of any height from the lowest scanned height to {@code hi}
     */
    Batch fetchBatch(Set<Integer> matched, int lo, int hi, IntFunction<BasicFilter> filters) {
        Set<Integer> queued = new TreeSet<>(matched);
        Map<Integer, List<Seed>> seeds = new HashMap<>();
        if (policy.decoys() > 0 || policy.clusters() > 0) {
            List<DecoyGroup> kept = state.decoys();
            if (!kept.isEmpty()) {
                for (int h = lo; h <= hi; h++) {
                    if (followed(kept, h, filters.apply(h))) {
                        queued.add(h);
                    }
                }
            }
            for (int m : new TreeSet<>(matched)) {
                byte[] hash = state.blockHash(m).getBytes();
                for (int i = 0; i < policy.decoys() + policy.clusters(); i++) {
                    boolean cluster = i >= policy.decoys();
                    int k = cluster ? i - policy.decoys() : i;
                    int s = seedHeight(m, hash, cluster ? "cluster-seed-block" : "seed-block", k);
                    if (s >= 0) {
                        seeds.computeIfAbsent(s, x -> new ArrayList<>()).add(new Seed(m, cluster, k, s));
                        queued.add(s);
                    }
                }
            }
        }
        List<Integer> requests = new ArrayList<>(queued);
        if (policy.shuffle()) {
            for (int i = requests.size() - 1; i > 0; i--) {
                Collections.swap(requests, i, order.nextInt(i + 1));
            }
        }
        Map<Integer, Block> out = new HashMap<>();
        Map<Seed, DecoyGroup> found = new HashMap<>();
        for (int next = 0; next < requests.size(); next++) {
            int h = requests.get(next);
            Block b = fetch(h);
            if (matched.contains(h)) {
                out.put(h, b);
            } else {
                decoyBlocks++;
            }
            for (Seed sd : seeds.getOrDefault(h, List.of())) {
                Adoption a = sd.cluster() ? adoptCluster(b, sd, hi, filters) : adopt(b, sd, hi, filters);
                if (a != null) {
                    found.put(sd, a.group());
                    follow(a.heights(), lo, queued, requests, next);
                }
            }
        }
        return new Batch(out, keep(found));
    }

    /**
     * The groups found in a batch in a fixed order (the blocks they hide by height, lone decoys first, then i),
     * less those whose scripts are already kept: which one is kept must not depend on the order the blocks arrived.
     */
    private List<DecoyGroup> keep(Map<Seed, DecoyGroup> found) {
        List<Seed> order = new ArrayList<>(found.keySet());
        order.sort(Comparator.comparingInt(Seed::matched)
                .thenComparing(Seed::cluster)
                .thenComparingInt(Seed::i));
        Set<Set<OutputScript>> known = new HashSet<>();
        state.decoys().forEach(g -> known.add(Set.copyOf(g.scripts())));
        List<DecoyGroup> out = new ArrayList<>();
        for (Seed sd : order) {
            DecoyGroup g = found.get(sd);
            if (known.add(Set.copyOf(g.scripts()))) {
                out.add(g);
            }
        }
        adopted.addAll(out);
        return out;
    }

    /** Whether a kept group adopted below {@code h} matches the filter {@code f} (null: not known, no). */
    private static boolean followed(List<DecoyGroup> kept, int h, BasicFilter f) {
        if (f == null) {
            return false;
        }
        List<byte[]> all = new ArrayList<>();
        for (DecoyGroup g : kept) {
            if (g.adoptedAt() < h) {
                g.scripts().forEach(s -> all.add(s.bytes()));
            }
        }
        return !all.isEmpty() && f.matchAny(all);
    }

    /**
     * The i-th seed block of {@code tag} for the matched block at {@code m}: uniform over the {@link #SEED_WINDOW}
     * heights below it that are not below the lowest scanned height; -1 when there is none.
     */
    private int seedHeight(int m, byte[] blockHash, String tag, int i) {
        int window = Math.min(SEED_WINDOW, m - state.lowestScanHeight());
        if (window <= 0) {
            return -1;
        }
        return m - 1 - (int) Long.remainderUnsigned(hash(tag, blockHash, i), window);
    }

    /**
     * Adds to the requests after {@code next} each of {@code heights} (ascending, the adopted scripts' blocks found by
     * {@link #matchingHeights}) not queued in this batch nor (below {@code lo}) downloaded earlier in this sync.
     */
    private void follow(List<Integer> heights, int lo, Set<Integer> queued, List<Integer> requests, int next) {
        for (int g : heights) {
            if (queued.contains(g) || (g < lo && fetched.contains(g))) {
                continue;
            }
            queued.add(g);
            int at = policy.shuffle()
                    ? next + 1 + order.nextInt(requests.size() - next)
                    : insertionPoint(requests, next + 1, g);
            requests.add(at, g);
        }
    }

    /** Where {@code g} goes among the height-ordered requests after {@code from}. */
    private static int insertionPoint(List<Integer> requests, int from, int g) {
        int at = from;
        while (at < requests.size() && requests.get(at) < g) {
            at++;
        }
        return at;
    }

    /** One block, verified, from the source the policy picks (others if it fails); pauses first if the policy says. */
    Block fetch(int height) {
        if (policy.jitterMillis() > 0) {
            pause.accept(order.nextLong(policy.jitterMillis() + 1L));
        }
        Sha256Hash hash = state.blockHash(height);
        ChainSource preferred = null;
        if (policy.spread()) {
            long best = 0;
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < height) {
                    continue;
                }
                byte[] name = s.name().getBytes(StandardCharsets.UTF_8);
                byte[] key = java.util.Arrays.copyOf(hash.getBytes(), 32 + name.length);
                System.arraycopy(name, 0, key, 32, name.length);
                long score = hash("source", key, 0);
                if (preferred == null || Long.compareUnsigned(score, best) > 0) {
                    preferred = s;
                    best = score;
                }
            }
        }
        Block b = pool.verifiedBlock(height, preferred);
        fetched.add(height);
        return b;
    }

    /** A group adopted from a seed block, and its blocks from the seed's look-back window up to the batch's end. */
    private record Adoption(DecoyGroup group, List<Integer> heights) {}

    /** The first height of a seed block's look-back window. */
    private int windowStart(int seedHeight) {
        return Math.max(state.lowestScanHeight(), seedHeight - LOOKBACK);
    }

    /**
     * The seed block's decoy script: among its candidates (seeded order), one that appears in no filter of the
     * look-back window below the seed block (those blocks were passed without downloading it) and in as many filters
     * from the seed block up to the matched block as possible, at most {@link FetchPolicy#DECOY_MAX_BLOCKS}; the first
     * of equals; null when none qualifies.
     */
    private Adoption adopt(Block seedBlock, Seed sd, int hi, IntFunction<BasicFilter> filters) {
        List<List<OutputScript>> candidates =
                candidates(seedBlock).stream().map(List::of).toList();
        List<List<Integer>> heights = matchingHeights(candidates, windowStart(sd.height()), hi, filters);
        Adoption best = null;
        int bestCount = 0;
        for (int c = 0; c < candidates.size(); c++) {
            List<Integer> in = heights.get(c);
            boolean passedBefore = !in.isEmpty() && in.get(0) < sd.height();
            int count = upTo(in, sd.matched());
            if (!passedBefore && count <= FetchPolicy.DECOY_MAX_BLOCKS && count > bestCount) {
                best = new Adoption(new DecoyGroup(false, sd.matched(), sd.height(), candidates.get(c)), in);
                bestCount = count;
            }
        }
        return best;
    }

    /**
     * The seed block's decoy cluster: among its first {@link FetchPolicy#CLUSTER_CANDIDATES} candidate transactions
     * (seeded order, see {@link #clusterCandidates}), the one whose scripts appear in the most filters from the
     * look-back window up to the matched block, at most {@link FetchPolicy#CLUSTER_MAX_BLOCKS}; the first of equals;
     * null when none qualifies.
     */
    private Adoption adoptCluster(Block seedBlock, Seed sd, int hi, IntFunction<BasicFilter> filters) {
        List<List<OutputScript>> candidates = clusterCandidates(seedBlock);
        List<List<Integer>> heights = matchingHeights(candidates, windowStart(sd.height()), hi, filters);
        Adoption best = null;
        int bestCount = 0;
        for (int c = 0; c < candidates.size(); c++) {
            int blocks = upTo(heights.get(c), sd.matched());
            if (blocks <= FetchPolicy.CLUSTER_MAX_BLOCKS && blocks > bestCount) {
                best = new Adoption(new DecoyGroup(true, sd.matched(), sd.height(), candidates.get(c)), heights.get(c));
                bestCount = blocks;
            }
        }
        return best;
    }

    /** How many of the ascending {@code heights} are at most {@code max}. */
    private static int upTo(List<Integer> heights, int max) {
        int n = 0;
        while (n < heights.size() && heights.get(n) <= max) {
            n++;
        }
        return n;
    }

    /**
     * Per group of scripts, the heights in {@code from..hi} whose filter matches one of them, ascending: one walk of
     * each filter for all groups' scripts at once ({@link BasicFilter#matchEach}), where a walk for all and then one
     * per group of a filter that matched walked it up to one more time per group.
     */
    static List<List<Integer>> matchingHeights(
            List<List<OutputScript>> groups, int from, int hi, IntFunction<BasicFilter> filters) {
        List<byte[]> all = new ArrayList<>();
        int[] groupEnd = new int[groups.size()];
        List<List<Integer>> out = new ArrayList<>();
        for (int c = 0; c < groups.size(); c++) {
            for (OutputScript s : groups.get(c)) {
                all.add(s.bytes());
            }
            groupEnd[c] = all.size();
            out.add(new ArrayList<>());
        }
        if (all.isEmpty()) {
            return out;
        }
        for (int h = from; h <= hi; h++) {
            BasicFilter f = filters.apply(h);
            if (f == null) {
                continue;
            }
            boolean[] present = f.matchEach(all);
            int start = 0;
            for (int c = 0; c < groups.size(); c++) {
                for (int i = start; i < groupEnd[c]; i++) {
                    if (present[i]) {
                        out.get(c).add(h);
                        break;
                    }
                }
                start = groupEnd[c];
            }
        }
        return out;
    }

    /**
     * The block's transactions whose inputs could be a decoy cluster, as their distinct input scripts, in seeded
     * order, at most {@link FetchPolicy#CLUSTER_CANDIDATES}: 2..{@link FetchPolicy#MAX_CLUSTER_INPUTS} distinct
     * scripts, each derivable from the input ({@link #inputScript}), none the wallet's.
     */
    List<List<OutputScript>> clusterCandidates(Block block) {
        List<List<OutputScript>> out = new ArrayList<>();
        for (Transaction tx : block.getTransactions()) {
            if (tx.isCoinBase() || tx.getInputs().size() < 2) {
                continue;
            }
            Set<OutputScript> scripts = new LinkedHashSet<>();
            boolean ok = true;
            for (TransactionInput in : tx.getInputs()) {
                Optional<OutputScript> s = inputScript(in);
                if (s.isEmpty() || state.isMine(s.get())) {
                    ok = false;
                    break;
                }
                scripts.add(s.get());
            }
            if (ok && scripts.size() >= 2 && scripts.size() <= FetchPolicy.MAX_CLUSTER_INPUTS) {
                out.add(List.copyOf(scripts));
            }
        }
        return List.copyOf(
                inHashOrder(out, c -> c.get(0).bytes(), "cluster-candidate", FetchPolicy.CLUSTER_CANDIDATES));
    }

    /**
     * The first {@code max} of {@code items} by the hash of {@code tag} and each one's key, equal hashes in list order
     * (a stable sort). Each key is hashed once: a hash per comparison was two SHA-256 each, n log n of them for a
     * mainnet block's thousands of scripts or transactions.
     */
    private <T> List<T> inHashOrder(List<T> items, java.util.function.Function<T, byte[]> key, String tag, int max) {
        long[] keys = new long[items.size()];
        Integer[] order = new Integer[items.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = hash(tag, key.apply(items.get(i)), 0);
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
        List<T> out = new ArrayList<>();
        for (int i = 0; i < Math.min(max, order.length); i++) {
            out.add(items.get(order[i]));
        }
        return out;
    }

    /**
     * The script an input spends, when the block shows it: P2WPKH (witness key), P2PKH (scriptSig key), P2SH-P2WPKH
     * (redeem script); empty otherwise (a P2TR key-path spend shows only a signature).
     */
    static Optional<OutputScript> inputScript(TransactionInput in) {
        return FilterEvidence.reconstruct(in).map(OutputScript::of);
    }

    /** The block's output scripts that could be a decoy (not empty, not OP_RETURN, not the wallet's), in seeded order. */
    private List<OutputScript> candidates(Block block) {
        Set<OutputScript> all = new LinkedHashSet<>();
        for (Transaction tx : block.getTransactions()) {
            if (tx.isCoinBase()) {
                continue;
            }
            for (TransactionOutput o : tx.getOutputs()) {
                byte[] s = o.getScriptBytes();
                if (s.length > 0 && (s[0] & 0xff) != 0x6a) {
                    OutputScript os = OutputScript.of(s);
                    if (!state.isMine(os)) {
                        all.add(os);
                    }
                }
            }
        }
        return List.copyOf(inHashOrder(new ArrayList<>(all), OutputScript::bytes, "candidate", CANDIDATES));
    }

    /** The first 8 bytes of SHA-256(seed, tag, data, i). */
    private long hash(String tag, byte[] data, int i) {
        MessageDigest d = sha256();
        d.update(seed);
        d.update(tag.getBytes(StandardCharsets.UTF_8));
        d.update(data);
        d.update(new byte[] {(byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i});
        byte[] h = d.digest();
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = (v << 8) | (h[k] & 0xff);
        }
        return v;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
