package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the sync engine downloads the blocks its filters match, to make the download pattern say less about which
 * scripts are the wallet's (measured by the privacy lab's experiment 8):
 *
 * <ul>
 *   <li>{@code spread}: each block goes to one source chosen by rendezvous hashing of (wallet seed, block hash,
 *   source name), so with k sources each sees about 1/k of the downloads, and the same 1/k in every sync (a source
 *   gains nothing by comparing syncs). Falls back to the other live sources when the chosen one fails.</li>
 *   <li>{@code decoys=K}: for each matched block, K <i>seed blocks</i> among the {@code 1000} heights below it (not
 *   below the birthday), chosen by a hash of (wallet seed, matched block hash, i), are downloaded too; from each seed
 *   block the wallet adopts one <i>decoy script</i> (an output script that appears in no filter of the 2016 blocks
 *   below the seed block, and in as many filters from the seed block up to the matched block as possible, at most
 *   {@link #DECOY_MAX_BLOCKS}), downloads its blocks in between, and from then on every block whose filter matches a
 *   decoy script, as it does for its own scripts. Decoy scripts thus co-occur across downloaded blocks as the
 *   wallet's scripts do, and are the same in every sync from the same start (derived from the wallet seed and the
 *   chain only), so intersecting syncs does not remove them. They are kept with the wallet ({@link DecoyGroup}) and
 *   followed by every later sync, and each choice reads only the chain up to its matched block, so a wallet synced
 *   block by block downloads the blocks one sync over the same range downloads (some of them more than once: it
 *   keeps no block, and a seed block below a later sync's filters is fetched again to read its scripts). Decoy blocks are verified like every
 *   block (a lying source is caught) and then discarded: they never reach the ledger.</li>
 *   <li>{@code clusters=K}: decoys that look like a wallet's spending: for each matched block, K more seed blocks
 *   (a separate hash of the same inputs); from each the wallet adopts a whole <i>common-input cluster</i>, the input
 *   scripts of one multi-input transaction (2..{@link #MAX_CLUSTER_INPUTS} distinct scripts, none the wallet's, every
 *   one derivable from the block: P2WPKH witness key, P2PKH scriptSig key, P2SH-P2WPKH redeem script; a transaction
 *   with a P2TR key-path or other input is skipped). Among the seed block's first {@link #CLUSTER_CANDIDATES}
 *   such transactions (seeded order) it takes the one whose scripts appear in the most filters from 2016 blocks
 *   below the seed block up to the matched block, at most {@link #CLUSTER_MAX_BLOCKS}, as a wallet's own addresses
 *   recur. It then downloads every block of that window whose filter matches a member, the already scanned ones too
 *   (as a newly found own script makes the wallet look back), and follows the members like other decoy scripts. The
 *   transaction-graph adversary ranks clusters, which lone decoy scripts are not; these are. Same seed, keeping,
 *   verification and discarding as {@code decoys}.</li>
 *   <li>{@code shuffle}: the downloads of one filter batch are requested in a random order, not height order.</li>
 *   <li>{@code jitter=MS}: a random pause of 0..MS milliseconds before each block request.</li>
 * </ul>
 *
 * A spec is {@code none}, {@code default}, or a comma-separated list of the items above, e.g.
 * {@code spread,decoys=2,clusters=1,shuffle}. Immutable; thread-safe.
 *
 * @param spread       spread downloads over the sources
 * @param decoys       seed blocks (each adopting at most one decoy script) per matched block, 0..{@link #MAX_DECOYS}
 * @param clusters     seed blocks (each adopting at most one common-input cluster) per matched block,
 *                     0..{@link #MAX_CLUSTERS}
 * @param shuffle      random request order within a step
 * @param jitterMillis the longest pause before a block request, 0..{@link #MAX_JITTER_MILLIS}
 */
public record FetchPolicy(boolean spread, int decoys, int clusters, boolean shuffle, int jitterMillis) {
    /** Most decoy seed blocks per matched block. */
    public static final int MAX_DECOYS = 16;
    /** Most common-input cluster seed blocks per matched block. */
    public static final int MAX_CLUSTERS = 8;
    /** The most distinct input scripts a decoy cluster may have. */
    public static final int MAX_CLUSTER_INPUTS = 16;
    /** Multi-input transactions of a seed block considered for a decoy cluster. */
    public static final int CLUSTER_CANDIDATES = 8;
    /** A decoy cluster is adopted only if its scripts are in at most this many filters of its look-back window. */
    public static final int CLUSTER_MAX_BLOCKS = 32;

    /** Longest pause allowed before a block request (one minute). */
    public static final int MAX_JITTER_MILLIS = 60_000;
    /** A decoy script is adopted only if it is in at most this many filters from its seed block to its matched block. */
    public static final int DECOY_MAX_BLOCKS = 6;

    /** Only the matched blocks, from the first live source, in height order, no pauses. */
    public static final FetchPolicy NONE = new FetchPolicy(false, 0, 0, false, 0);

    /**
     * The default's spec: spread over the sources given, four seed blocks per matched block, shuffled; no jitter. The
     * privacy lab's experiment 8 (privacy-lab/results/exp8-fetch-policy) measures it and the other policies against
     * every adversary it models and the maximum over them per wallet, and chooses the default by a rule written before
     * the run: the cheapest measured policy whose maximum-over-adversaries P_h(1) has an upper 95% bound below 0.5 for
     * every wallet size and number of sources; if none qualifies the default stays. What this default does and does
     * not protect against, per adversary, is the report's section "What the default leaks, per adversary" (figures
     * there, not here); in short, {@code spread} gives nothing against a network observer, which sees the requests to
     * every source, and only decoys change what it and a BIP 324 observer (who knows most blocks by their size) see.
     */
    public static final String DEFAULT_SPEC = "spread,decoys=4,shuffle";

    /** {@link #DEFAULT_SPEC} parsed. */
    public static final FetchPolicy DEFAULT = parse(DEFAULT_SPEC);

    public FetchPolicy {
        if (decoys < 0 || decoys > MAX_DECOYS) {
            throw new IllegalArgumentException("decoys must be in 0.." + MAX_DECOYS + ", got " + decoys);
        }
        if (clusters < 0 || clusters > MAX_CLUSTERS) {
            throw new IllegalArgumentException("clusters must be in 0.." + MAX_CLUSTERS + ", got " + clusters);
        }
        if (jitterMillis < 0 || jitterMillis > MAX_JITTER_MILLIS) {
            throw new IllegalArgumentException(
                    "jitter must be in 0.." + MAX_JITTER_MILLIS + " ms, got " + jitterMillis);
        }
    }

    /** Parses a spec (see the class doc); {@link IllegalArgumentException} naming the bad item otherwise. */
    public static FetchPolicy parse(String spec) {
        String s = spec == null ? "" : spec.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty fetch policy; use none, default or e.g. spread,decoys=2,shuffle");
        }
        if (s.equals("none")) {
            return NONE;
        }
        if (s.equals("default")) {
            return DEFAULT;
        }
        boolean spread = false;
        boolean shuffle = false;
        int decoys = 0;
        int clusters = 0;
        int jitter = 0;
        List<String> seen = new ArrayList<>();
        for (String raw : s.split(",", -1)) {
            String item = raw.trim();
            String key = item.contains("=") ? item.substring(0, item.indexOf('=')) : item;
            if (seen.contains(key)) {
                throw new IllegalArgumentException("fetch policy item '" + key + "' given twice in '" + spec + "'");
            }
            seen.add(key);
            switch (key) {
                case "spread" -> spread = flag(item);
                case "shuffle" -> shuffle = flag(item);
                case "decoys" -> decoys = number(item, MAX_DECOYS);
                case "clusters" -> clusters = number(item, MAX_CLUSTERS);
                case "jitter" -> jitter = number(item, MAX_JITTER_MILLIS);
                default ->
                    throw new IllegalArgumentException("unknown fetch policy item '" + item + "' in '" + spec
                            + "'; items: spread, decoys=0.." + MAX_DECOYS + ", clusters=0.." + MAX_CLUSTERS
                            + ", shuffle, jitter=0.." + MAX_JITTER_MILLIS
                            + " (ms), or none, default");
            }
        }
        return new FetchPolicy(spread, decoys, clusters, shuffle, jitter);
    }

    private static boolean flag(String item) {
        if (item.contains("=")) {
            throw new IllegalArgumentException("fetch policy item '" + item + "' takes no value");
        }
        return true;
    }

    private static int number(String item, int max) {
        int eq = item.indexOf('=');
        String key = eq < 0 ? item : item.substring(0, eq);
        String v = eq < 0 ? "" : item.substring(eq + 1).trim();
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "fetch policy item '" + key + "' needs an integer 0.." + max + ", got '" + v + "'");
        }
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("fetch policy item '" + key + "' must be in 0.." + max + ", got " + n);
        }
        return n;
    }

    /** The spec that parses back to this policy. */
    public String spec() {
        List<String> items = new ArrayList<>();
        if (spread) {
            items.add("spread");
        }
        if (decoys > 0) {
            items.add("decoys=" + decoys);
        }
        if (clusters > 0) {
            items.add("clusters=" + clusters);
        }
        if (shuffle) {
            items.add("shuffle");
        }
        if (jitterMillis > 0) {
            items.add("jitter=" + jitterMillis);
        }
        return items.isEmpty() ? "none" : String.join(",", items);
    }

    @Override
    public String toString() {
        return spec();
    }
}
