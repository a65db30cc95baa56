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
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.source.ChainSource;

/**
 * Downloads blocks as a {@link FetchPolicy} says: which source, in what order, with what pauses, and which decoy
 * blocks beside the matched ones. Decoys are derived from a per-wallet seed (a hash of the wallet's extended public
 * keys, which never leave the wallet) and the chain, so two syncs of the same range download the same decoys.
 * Not thread-safe; one per sync.
 */
final class BlockFetcher {
    /** Candidate decoy scripts considered per seed block. */
    static final int CANDIDATES = 8;
    /** How far back a candidate decoy script must be absent from the filters (the wallet keeps this many in memory). */
    static final int LOOKBACK = 2016;

    private final SyncState state;
    private final SourcePool pool;
    private final FetchPolicy policy;
    private final LongConsumer pause;
    private final byte[] seed;
    private final SplittableRandom order = new SplittableRandom(new SecureRandom().nextLong());
    private final List<OutputScript> decoyScripts = new ArrayList<>();
    /**
     * The decoy scripts adopted before the current batch. A cluster candidate is judged against these, not against
     * scripts adopted earlier in the same batch: the batch's blocks arrive in a random order when the policy
     * shuffles, and a choice that depended on that order would differ between syncs of the same range.
     */
    private Set<OutputScript> adoptedBeforeBatch = Set.of();
    /** Heights downloaded in this sync (a look-back for a decoy cluster does not fetch them again). */
    private final Set<Integer> fetched = new HashSet<>();

    private int decoyBlocks;

    BlockFetcher(SyncState state, SourcePool pool, FetchPolicy policy, LongConsumer pause) {
        this.state = state;
        this.pool = pool;
        this.policy = policy;
        this.pause = pause;
        this.seed = state.decoySeed();
    }

    /** The wallet's decoy seed: SHA-256 of a tag and its accounts' extended public keys, in account order. */
    static byte[] seed(List<HdAccount> accounts) {
        MessageDigest d = sha256();
        d.update("blockfilter/fetch-policy/v1".getBytes(StandardCharsets.UTF_8));
        for (HdAccount a : accounts) {
            d.update(a.kind().name().getBytes(StandardCharsets.UTF_8));
            d.update(a.extendedPublicKey().getBytes(StandardCharsets.UTF_8));
        }
        return d.digest();
    }

    /** Decoy blocks downloaded so far in this sync (verified and discarded). */
    int decoyBlocks() {
        return decoyBlocks;
    }

    /** The decoy scripts adopted so far in this sync, in adoption order. */
    List<OutputScript> decoyScripts() {
        return List.copyOf(decoyScripts);
    }

    /**
     * Downloads the matched blocks of the filter batch {@code lo..hi} with the batch's decoys; returns the matched
     * ones by height. The requests are the matched blocks, K seed blocks per matched block (uniform over the batch,
     * by a hash of the wallet seed, the matched block's hash and i) and the batch's blocks matching decoy scripts
     * adopted earlier, shuffled if the policy says; when a seed block arrives, its decoy script is adopted and its
     * other blocks in the batch are added to the requests still to come, at random places. With
     * {@code clusters=K}, K more seed blocks per matched block each adopt a common-input cluster, whose blocks in the
     * look-back window not yet downloaded and in the batch are added the same way.
     *
     * @param from    the first height of the synced range (a decoy script must not appear in a passed block)
     * @param filters the verified filter of a height in {@code max(from, lo - LOOKBACK)..hi}, or null if not kept
     */
    Map<Integer, Block> fetchBatch(Set<Integer> matched, int lo, int hi, int from, IntFunction<BasicFilter> filters) {
        adoptedBeforeBatch = Set.copyOf(decoyScripts);
        Set<Integer> queued = new TreeSet<>(matched);
        Set<Integer> seeds = new TreeSet<>();
        Set<Integer> clusterSeeds = new TreeSet<>();
        if (policy.decoys() > 0 || policy.clusters() > 0) {
            if (!decoyScripts.isEmpty()) {
                List<byte[]> query =
                        decoyScripts.stream().map(OutputScript::bytes).toList();
                for (int h = lo; h <= hi; h++) {
                    BasicFilter f = filters.apply(h);
                    if (f != null && f.matchAny(query)) {
                        queued.add(h);
                    }
                }
            }
            int span = hi - lo + 1;
            for (int h : matched) {
                Sha256Hash hash = state.blockHash(h);
                for (int i = 0; i < policy.decoys(); i++) {
                    int s = lo + (int) Long.remainderUnsigned(hash("seed-block", hash.getBytes(), i), span);
                    if (!matched.contains(s)) {
                        seeds.add(s);
                        queued.add(s);
                    }
                }
                for (int i = 0; i < policy.clusters(); i++) {
                    int s = lo + (int) Long.remainderUnsigned(hash("cluster-seed-block", hash.getBytes(), i), span);
                    if (!matched.contains(s)) {
                        clusterSeeds.add(s);
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
        for (int next = 0; next < requests.size(); next++) {
            int h = requests.get(next);
            Block b = fetch(h);
            if (matched.contains(h)) {
                out.put(h, b);
                continue;
            }
            decoyBlocks++;
            if (seeds.contains(h)) {
                Adoption decoy = adopt(b, lo, hi, from, filters);
                if (decoy != null && !decoyScripts.contains(decoy.scripts().get(0))) {
                    decoyScripts.add(decoy.scripts().get(0));
                    follow(decoy.heights(), lo, queued, requests, next);
                }
            }
            if (clusterSeeds.contains(h)) {
                Adoption cluster = adoptCluster(b, lo, hi, from, filters);
                if (cluster != null) {
                    for (OutputScript member : cluster.scripts()) {
                        if (!decoyScripts.contains(member)) {
                            decoyScripts.add(member);
                        }
                    }
                    follow(cluster.heights(), lo, queued, requests, next);
                }
            }
        }
        return out;
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

    /** Scripts adopted as decoys together, and their blocks in the look-back window and the batch, ascending. */
    private record Adoption(List<OutputScript> scripts, List<Integer> heights) {}

    /**
     * The seed block's decoy script: among its candidates (seeded order), one that appears in no filter from the
     * look-back window up to the batch (those blocks were passed without downloading it) and in as many of the
     * batch's filters as possible, at most {@link FetchPolicy#DECOY_MAX_BLOCKS}; null when none qualifies.
     */
    private Adoption adopt(Block seedBlock, int lo, int hi, int from, IntFunction<BasicFilter> filters) {
        List<List<OutputScript>> candidates =
                candidates(seedBlock).stream().map(List::of).toList();
        List<List<Integer>> heights = matchingHeights(candidates, lo, hi, from, filters);
        Adoption best = null;
        int bestCount = 0;
        for (int c = 0; c < candidates.size(); c++) {
            List<Integer> in = heights.get(c);
            boolean passedBefore = !in.isEmpty() && in.get(0) < lo;
            if (!passedBefore && in.size() <= FetchPolicy.DECOY_MAX_BLOCKS && in.size() > bestCount) {
                best = new Adoption(candidates.get(c), in);
                bestCount = in.size();
            }
        }
        return best;
    }

    /**
     * The seed block's decoy cluster: among its first {@link FetchPolicy#CLUSTER_CANDIDATES} candidate transactions
     * (seeded order, see {@link #clusterCandidates}), the one whose scripts appear in the most filters of the
     * look-back window and the batch, at most {@link FetchPolicy#CLUSTER_MAX_BLOCKS}; the first of equals; null when
     * none qualifies.
     */
    private Adoption adoptCluster(Block seedBlock, int lo, int hi, int from, IntFunction<BasicFilter> filters) {
        List<List<OutputScript>> candidates = clusterCandidates(seedBlock);
        List<List<Integer>> heights = matchingHeights(candidates, lo, hi, from, filters);
        Adoption best = null;
        int bestCount = 0;
        for (int c = 0; c < candidates.size(); c++) {
            int blocks = heights.get(c).size();
            if (blocks <= FetchPolicy.CLUSTER_MAX_BLOCKS && blocks > bestCount) {
                best = new Adoption(candidates.get(c), heights.get(c));
                bestCount = blocks;
            }
        }
        return best;
    }

    /**
     * Per group of scripts, the heights in {@code max(from, lo - LOOKBACK)..hi} whose filter matches one of them,
     * ascending: one pass over the window for all groups (a filter none of them matches is decoded once).
     */
    private static List<List<Integer>> matchingHeights(
            List<List<OutputScript>> groups, int lo, int hi, int from, IntFunction<BasicFilter> filters) {
        List<List<byte[]>> queries = new ArrayList<>();
        List<byte[]> all = new ArrayList<>();
        List<List<Integer>> out = new ArrayList<>();
        for (List<OutputScript> g : groups) {
            List<byte[]> q = g.stream().map(OutputScript::bytes).toList();
            queries.add(q);
            all.addAll(q);
            out.add(new ArrayList<>());
        }
        if (all.isEmpty()) {
            return out;
        }
        for (int h = Math.max(from, lo - LOOKBACK); h <= hi; h++) {
            BasicFilter f = filters.apply(h);
            if (f == null || !f.matchAny(all)) {
                continue;
            }
            for (int c = 0; c < groups.size(); c++) {
                if (f.matchAny(queries.get(c))) {
                    out.get(c).add(h);
                }
            }
        }
        return out;
    }

    /**
     * The block's transactions whose inputs could be a decoy cluster, as their distinct input scripts, in seeded
     * order, at most {@link FetchPolicy#CLUSTER_CANDIDATES}: 2..{@link FetchPolicy#MAX_CLUSTER_INPUTS} distinct
     * scripts, each derivable from the input ({@link #inputScript}), none the wallet's or a decoy adopted before this
     * batch.
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
                if (s.isEmpty() || state.isMine(s.get()) || adoptedBeforeBatch.contains(s.get())) {
                    ok = false;
                    break;
                }
                scripts.add(s.get());
            }
            if (ok && scripts.size() >= 2 && scripts.size() <= FetchPolicy.MAX_CLUSTER_INPUTS) {
                out.add(List.copyOf(scripts));
            }
        }
        out.sort(
                Comparator.comparingLong(c -> hash("cluster-candidate", c.get(0).bytes(), 0)));
        return List.copyOf(out.subList(0, Math.min(FetchPolicy.CLUSTER_CANDIDATES, out.size())));
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
        List<OutputScript> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingLong(s -> hash("candidate", s.bytes(), 0)));
        return List.copyOf(sorted.subList(0, Math.min(CANDIDATES, sorted.size())));
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
