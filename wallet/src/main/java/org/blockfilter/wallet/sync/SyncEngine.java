package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.Ledger;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * Syncs a {@link LightWallet} from one or more untrusted {@link ChainSource}s (BIP 157/158):
 * <ol>
 * <li>block headers from every source, each branch checked ({@link VerifiedHeaderChain}); the most-work
 * chain wins, a reorg rolls the wallet back to the fork;</li>
 * <li>filter-header checkpoints and filter headers from every source, checked link by link
 * ({@link FilterHeaders#next}) and against the checkpoints, and compared between sources; a
 * disagreement is settled at the first differing height by the block itself
 * ({@link FilterEvidence}) and the liar is named and dropped;</li>
 * <li>filters in batches of at most {@link Bip157#MAX_CFILTERS}, each checked against its
 * committed header, matched against every watched script; matching blocks fetched as the
 * {@link FetchPolicy} says (sources, decoy scripts and clusters, order, pauses), checked ({@link BlockCheck}) and applied
 * (decoy blocks are checked and discarded); a used address slides the gap window and the range
 * scanned so far is rescanned for the new scripts.</li>
 * </ol>
 * The balance is never silently wrong: when no honest source is left or a dispute cannot be
 * settled, sync stops with a {@link SyncException} and the wallet keeps its last verified state.
 *
 * <p>Not thread-safe; one engine per sync.
 */
public final class SyncEngine {
    /** Filters kept in memory per sync for rescans after the gap window slides. */
    private static final int FILTER_CACHE_LIMIT = 50_000;

    private final LightWallet wallet;
    private final NetworkParameters params;
    private final SourcePool pool;
    private final SyncProgress.Listener listener;
    private final FetchPolicy policy;
    private final BlockFetcher fetcher;
    private final Map<Integer, BasicFilter> filterCache = new HashMap<>();
    private final List<String> rollbacks = new ArrayList<>();
    private int matchedBlocks;
    private int filtersScanned;
    private int reorgDepth;

    /** An engine with the {@link FetchPolicy#DEFAULT default} block-fetch policy. */
    public SyncEngine(LightWallet wallet, List<? extends ChainSource> sources, SyncProgress.Listener listener) {
        this(wallet, sources, listener, FetchPolicy.DEFAULT);
    }

    /** An engine with the given block-fetch policy; jitter pauses sleep. */
    public SyncEngine(
            LightWallet wallet,
            List<? extends ChainSource> sources,
            SyncProgress.Listener listener,
            FetchPolicy policy) {
        this(wallet, sources, listener, policy, SyncEngine::sleep);
    }

    /**
     * An engine with the given block-fetch policy; {@code pause} is called with each jitter pause in milliseconds
     * (it sleeps in production; a simulation advances its own clock).
     */
    public SyncEngine(
            LightWallet wallet,
            List<? extends ChainSource> sources,
            SyncProgress.Listener listener,
            FetchPolicy policy,
            LongConsumer pause) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("at least one chain source is required");
        }
        this.wallet = wallet;
        this.params = NetworkParameters.of(wallet.network());
        this.pool = new SourcePool(wallet, params, sources);
        this.listener = listener;
        this.policy = policy;
        this.fetcher = new BlockFetcher(wallet, pool, policy, pause);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SyncException("interrupted during a fetch-policy pause", List.of());
        }
    }

    /** Runs one sync to the best tip the sources can prove; saves the wallet after each verified step. */
    public SyncReport sync() {
        return run(false);
    }

    /**
     * Like {@link #sync()}, but first compares every stored filter header with every source, not
     * only the stored tip; what they contradict and the blocks cannot refute is rolled back.
     */
    public SyncReport verifyAndSync() {
        return run(true);
    }

    private SyncReport run(boolean everyStoredHeader) {
        syncHeaders();
        syncCheckpoints();
        if (everyStoredHeader) {
            checkEveryStoredFilterHeader();
        }
        syncFilterHeaders();
        scanFilters();
        wallet.save();
        progress("done");
        return new SyncReport(
                wallet.scannedHeight(),
                filtersScanned,
                matchedBlocks,
                reorgDepth,
                pool.faults(),
                pool.live().stream().map(ChainSource::name).toList(),
                rollbacks,
                policy,
                fetcher.decoyBlocks());
    }

    // ---------------------------------------------------------------- headers

    private void syncHeaders() {
        for (ChainSource s : pool.live()) {
            try {
                int tip = s.tipHeight();
                pool.setTip(s, tip);
                absorbHeaders(s, tip);
            } catch (InvalidHeaderException e) {
                pool.drop(s, SourceFault.Kind.LIED, e.height(), "bad block header: " + e.getMessage());
            } catch (SourceException e) {
                pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
            }
        }
        VerifiedHeaderChain chain = wallet.headers();
        // A source processed before a heavier branch arrived may now be on the weaker side.
        for (ChainSource s : pool.live()) {
            int h = Math.min(pool.tip(s), chain.tipHeight());
            try {
                Sha256Hash theirs = headerHash(s, h);
                if (!theirs.equals(chain.hash(h))) {
                    pool.drop(
                            s,
                            SourceFault.Kind.WEAKER_CHAIN,
                            h,
                            "its block " + h + " is " + theirs + ", the most-work chain has " + chain.hash(h));
                }
            } catch (InvalidHeaderException e) {
                pool.drop(s, SourceFault.Kind.LIED, h, e.getMessage());
            } catch (SourceException e) {
                pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
            }
        }
        pool.requireLive("after header sync");
        wallet.save();
        progress("headers");
    }

    private void absorbHeaders(ChainSource s, int tip) {
        VerifiedHeaderChain chain = wallet.headers();
        int fork = forkPoint(s, Math.min(tip, chain.tipHeight()));
        if (tip <= fork) {
            return;
        }
        List<byte[]> branch = new ArrayList<>();
        for (int start = fork + 1; start <= tip; ) {
            int count = Math.min(Bip157.MAX_CFHEADERS, tip - start + 1);
            List<byte[]> got = s.blockHeaders(start, count);
            if (got.isEmpty()) {
                break;
            }
            if (got.size() > count) {
                throw new InvalidHeaderException(start, "asked for " + count + " headers, got " + got.size());
            }
            branch.addAll(got);
            start += got.size();
        }
        if (branch.isEmpty()) {
            return;
        }
        List<Block> parsed = chain.validateBranch(fork + 1, branch);
        if (fork == chain.tipHeight()) {
            chain.connect(fork + 1, branch);
            return;
        }
        if (VerifiedHeaderChain.work(parsed).compareTo(chain.workAbove(fork)) > 0) {
            rollback(fork);
            chain.connect(fork + 1, branch);
        } else {
            pool.drop(
                    s,
                    SourceFault.Kind.WEAKER_CHAIN,
                    fork + 1,
                    "forks from the best chain after height " + fork + " with less work");
        }
    }

    /** Highest height at or below {@code upTo} where the source's chain and ours agree. */
    private int forkPoint(ChainSource s, int upTo) {
        VerifiedHeaderChain chain = wallet.headers();
        int base = chain.baseHeight();
        int unequal = upTo + 1;
        int h = upTo;
        int step = 1;
        while (true) {
            if (headerHash(s, h).equals(chain.hash(h))) {
                break;
            }
            if (h == base) {
                throw new InvalidHeaderException(
                        base,
                        base == 0
                                ? "genesis differs: the source is on another network"
                                : "its block " + base + " is not the wallet's first block " + chain.hash(base)
                                        + ": the source is on another chain or network");
            }
            unequal = h;
            h = Math.max(base, h - step);
            step *= 2;
        }
        // h agrees, unequal disagrees (or is past upTo): find the last agreeing height between them.
        int lo = h;
        int hi = unequal;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (headerHash(s, mid).equals(chain.hash(mid))) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private Sha256Hash headerHash(ChainSource s, int height) {
        List<byte[]> one = s.blockHeaders(height, 1);
        if (one.size() != 1 || one.get(0).length != Block.HEADER_SIZE) {
            throw new InvalidHeaderException(height, "asked for 1 header, got " + one.size());
        }
        return VerifiedHeaderChain.parse(one.get(0)).getHash();
    }

    private void rollback(int fork) {
        VerifiedHeaderChain chain = wallet.headers();
        reorgDepth = Math.max(reorgDepth, chain.tipHeight() - fork);
        chain.truncate(fork);
        wallet.ledger().rollbackAbove(fork);
        FilterHeaderChain fh = wallet.filterHeaders();
        if (fork < fh.base() - 1) {
            wallet.resetFilterHeaders(wallet.newFilterHeaderChain());
        } else {
            fh.truncate(fork);
        }
        List<Sha256Hash> cps = wallet.checkpoints();
        wallet.setCheckpoints(cps.subList(0, Math.min(cps.size(), fork / Bip157.CHECKPOINT_INTERVAL)));
        wallet.setScannedHeight(Math.min(wallet.scannedHeight(), fork));
        filterCache.keySet().removeIf(h -> h > fork);
    }

    // ---------------------------------------------------------------- checkpoints

    private void syncCheckpoints() {
        VerifiedHeaderChain chain = wallet.headers();
        int expected = chain.tipHeight() / Bip157.CHECKPOINT_INTERVAL;
        while (true) {
            Map<ChainSource, List<Sha256Hash>> answers = new LinkedHashMap<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < chain.tipHeight()) {
                    continue;
                }
                try {
                    List<Sha256Hash> cps = s.filterCheckpoints(chain.tipHash());
                    if (cps.size() != expected) {
                        pool.drop(
                                s,
                                SourceFault.Kind.LIED,
                                chain.tipHeight(),
                                "cfcheckpt has " + cps.size() + " checkpoints, expected " + expected);
                        continue;
                    }
                    answers.put(s, cps);
                } catch (SourceException e) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
                }
            }
            pool.requireLive("after checkpoints");
            if (answers.isEmpty()) {
                return;
            }
            int first = firstDifference(new ArrayList<>(answers.values()));
            if (first < 0) {
                List<Sha256Hash> agreed = answers.values().iterator().next();
                List<Sha256Hash> stored = wallet.checkpoints();
                for (int i = 0; i < Math.min(stored.size(), agreed.size()); i++) {
                    if (!stored.get(i).equals(agreed.get(i))) {
                        // Every live source disagrees with a checkpoint an earlier sync stored: the
                        // filter headers from the last agreed checkpoint on are redone and rescanned.
                        int keep = i * Bip157.CHECKPOINT_INTERVAL;
                        FilterHeaderChain fh = wallet.filterHeaders();
                        if (i == 0 || keep < fh.base() - 1) {
                            wallet.resetFilterHeaders(wallet.newFilterHeaderChain());
                            keep = chain.baseHeight() - 1;
                        } else {
                            fh.truncate(keep);
                        }
                        wallet.setScannedHeight(Math.min(wallet.scannedHeight(), keep));
                        rollbacks.add("stored checkpoint " + (i + 1) * Bip157.CHECKPOINT_INTERVAL
                                + " contradicted by every source: filter headers from " + (keep + 1)
                                + " dropped and rescanned");
                        break;
                    }
                }
                wallet.setCheckpoints(agreed);
                return;
            }
            // Settle the first differing interval by its filter hashes.
            int start = first * Bip157.CHECKPOINT_INTERVAL + (first == 0 ? 0 : 1);
            int stop = (first + 1) * Bip157.CHECKPOINT_INTERVAL;
            if (start < chain.baseHeight()) {
                throw new SyncException(
                        "sources disagree on the filter-header checkpoint at height " + stop + ", at or below the"
                                + " wallet's first block header (" + chain.baseHeight() + "), where no block can settle"
                                + " it; refusing to guess",
                        pool.faults());
            }
            Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
            for (ChainSource s : answers.keySet()) {
                if (!pool.isLive(s)) {
                    continue;
                }
                try {
                    ChainSource.FilterHashBatch r = s.filterHeaders(start, chain.hash(stop));
                    List<Sha256Hash> headers = checkedHeaders(
                            s,
                            r,
                            start,
                            stop,
                            first == 0
                                    ? FilterHeaders.GENESIS_PREV
                                    : answers.get(s).get(first - 1));
                    if (!headers.get(headers.size() - 1).equals(answers.get(s).get(first))) {
                        pool.drop(s, SourceFault.Kind.LIED, stop, "its cfheaders do not reach its own checkpoint");
                        continue;
                    }
                    hashes.put(s, r.filterHashes());
                } catch (SourceException e) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
                } catch (SourcePool.DisputeException e) {
                    pool.drop(s, SourceFault.Kind.LIED, e.height(), e.getMessage());
                }
            }
            settle(start, hashes);
        }
    }

    // ---------------------------------------------------------------- filter headers

    private void syncFilterHeaders() {
        VerifiedHeaderChain chain = wallet.headers();
        int birthday = Math.min(wallet.birthdayHeight(), chain.tipHeight() + 1);
        FilterHeaderChain fh = wallet.filterHeaders();
        int aligned = (birthday - 1) / Bip157.CHECKPOINT_INTERVAL;
        if (fh.base() == chain.baseHeight()
                && fh.tipHeight() < fh.base()
                && aligned * Bip157.CHECKPOINT_INTERVAL >= chain.baseHeight()
                && aligned >= 1
                && wallet.checkpoints().size() >= aligned) {
            // Start at the checkpoint below the birthday instead of the first block header.
            wallet.resetFilterHeaders(new FilterHeaderChain(
                    aligned * Bip157.CHECKPOINT_INTERVAL + 1,
                    wallet.checkpoints().get(aligned - 1)));
        } else if (!fh.anchored() && fh.base() <= chain.tipHeight()) {
            new FilterHeaderAnchor(wallet, pool, this::settle).anchor(fh);
        }
        checkStoredFilterHeaders();
        int target = target();
        while (wallet.filterHeaders().tipHeight() < target) {
            fh = wallet.filterHeaders();
            int start = fh.tipHeight() + 1;
            int stop = Math.min(target, start + Bip157.MAX_CFHEADERS - 1);
            Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
            Map<ChainSource, List<Sha256Hash>> headersBySource = new HashMap<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < stop) {
                    continue;
                }
                try {
                    ChainSource.FilterHashBatch r = s.filterHeaders(start, chain.hash(stop));
                    List<Sha256Hash> headers = checkedHeaders(s, r, start, stop, fh.header(start - 1));
                    hashes.put(s, r.filterHashes());
                    headersBySource.put(s, headers);
                } catch (SourceException e) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
                } catch (SourcePool.DisputeException e) {
                    pool.drop(s, SourceFault.Kind.LIED, e.height(), e.getMessage());
                }
            }
            pool.requireLive("during filter-header sync");
            if (hashes.isEmpty()) {
                target = stop - 1;
                break;
            }
            if (firstDifference(new ArrayList<>(hashes.values())) >= 0) {
                settle(start, hashes);
                continue;
            }
            fh.append(headersBySource.get(hashes.keySet().iterator().next()));
            wallet.save();
            progress("filter headers");
        }
    }

    /**
     * The stored filter headers came from earlier syncs and are only as good as the sources that
     * served them. Every live source is asked for the header at the stored tip; one that disagrees
     * is not convicted for contradicting the file but heard out ({@link #reconcile}): the stored
     * chain is rolled back when the block cannot refute the new source.
     */
    private void checkStoredFilterHeaders() {
        VerifiedHeaderChain chain = wallet.headers();
        while (true) {
            FilterHeaderChain fh = wallet.filterHeaders();
            int tip = fh.tipHeight();
            if (tip < fh.base()) {
                return;
            }
            List<ChainSource> backers = new ArrayList<>();
            List<ChainSource> against = new ArrayList<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < tip) {
                    continue;
                }
                try {
                    ChainSource.FilterHashBatch r = s.filterHeaders(tip, chain.hash(tip));
                    if (r.filterHashes().size() != 1) {
                        throw new SourcePool.DisputeException(
                                tip, "cfheaders has " + r.filterHashes().size() + " filter hashes, expected 1");
                    }
                    Sha256Hash theirs = FilterHeaders.next(r.filterHashes().get(0), r.previousHeader());
                    (theirs.equals(fh.header(tip)) ? backers : against).add(s);
                } catch (SourceException e) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
                } catch (SourcePool.DisputeException e) {
                    pool.drop(s, SourceFault.Kind.LIED, e.height(), e.getMessage());
                }
            }
            pool.requireLive("checking the stored filter headers");
            if (against.isEmpty()) {
                return;
            }
            try {
                reconcile(against.get(0), backers);
            } catch (SourceException e) {
                pool.drop(against.get(0), SourceFault.Kind.FAILED, -1, e.getMessage());
            } catch (SourcePool.DisputeException e) {
                pool.drop(against.get(0), SourceFault.Kind.LIED, e.height(), e.getMessage());
            }
            pool.requireLive("checking the stored filter headers");
        }
    }

    /**
     * A live source contradicts the stored filter-header chain: find the first height where they
     * differ, then let the block judge the source's filter there. Refuted: the source lied. Not
     * refuted and no live source backs the stored chain: the stored chain is rolled back to just
     * below that height and rescanned from there. Both backed: an ordinary dispute ({@link #settle}).
     */
    private void reconcile(ChainSource s, List<ChainSource> backers) {
        Divergence div = firstDivergence(s);
        if (div == null) {
            throw new SourcePool.DisputeException(
                    wallet.filterHeaders().tipHeight(),
                    "its filter header at the stored tip contradicts its own cfheaders");
        }
        judge(s, div, backers);
    }

    /** Where a source's filter-header chain first differs from the stored one, and its filter hash there. */
    private record Divergence(int height, Sha256Hash filterHash) {}

    /** Downloads the source's filter headers over the whole stored range; null when they all agree. */
    private Divergence firstDivergence(ChainSource s) {
        VerifiedHeaderChain chain = wallet.headers();
        FilterHeaderChain fh = wallet.filterHeaders();
        Sha256Hash prev = fh.anchor();
        for (int start = fh.base(); start <= fh.tipHeight(); ) {
            int stop = Math.min(fh.tipHeight(), start + Bip157.MAX_CFHEADERS - 1);
            ChainSource.FilterHashBatch r = s.filterHeaders(start, chain.hash(stop));
            List<Sha256Hash> headers = checkedHeaders(s, r, start, stop, prev);
            for (int i = 0; i < headers.size(); i++) {
                if (!headers.get(i).equals(fh.header(start + i))) {
                    return new Divergence(start + i, r.filterHashes().get(i));
                }
            }
            prev = headers.get(headers.size() - 1);
            start = stop + 1;
        }
        return null;
    }

    /**
     * {@code verify}: every stored filter header (not only the tip, which each sync checks) is
     * compared with every live source, so a file edited in the middle of its chain is found too.
     * Costs 32 bytes per stored height per source.
     */
    private void checkEveryStoredFilterHeader() {
        while (true) {
            Map<ChainSource, Divergence> found = new LinkedHashMap<>();
            List<ChainSource> agreeing = new ArrayList<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < wallet.filterHeaders().tipHeight()) {
                    continue;
                }
                try {
                    Divergence d = firstDivergence(s);
                    if (d == null) {
                        agreeing.add(s);
                    } else {
                        found.put(s, d);
                    }
                } catch (SourceException e) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
                } catch (SourcePool.DisputeException e) {
                    pool.drop(s, SourceFault.Kind.LIED, e.height(), e.getMessage());
                }
            }
            pool.requireLive("verifying the stored filter headers");
            if (found.isEmpty()) {
                return;
            }
            Map.Entry<ChainSource, Divergence> first = found.entrySet().stream()
                    .min(java.util.Comparator.comparingInt(e -> e.getValue().height()))
                    .orElseThrow();
            int h = first.getValue().height();
            List<ChainSource> backers = new ArrayList<>(agreeing);
            found.forEach((s, d) -> {
                if (d.height() > h) {
                    backers.add(s);
                }
            });
            try {
                judge(first.getKey(), first.getValue(), backers);
            } catch (SourceException e) {
                pool.drop(first.getKey(), SourceFault.Kind.FAILED, -1, e.getMessage());
            } catch (SourcePool.DisputeException e) {
                pool.drop(first.getKey(), SourceFault.Kind.LIED, e.height(), e.getMessage());
            }
            pool.requireLive("verifying the stored filter headers");
        }
    }

    private void judge(ChainSource s, Divergence div, List<ChainSource> backers) {
        VerifiedHeaderChain chain = wallet.headers();
        FilterHeaderChain fh = wallet.filterHeaders();
        int d = div.height();
        Sha256Hash theirHash = div.filterHash();
        if (!backers.isEmpty()) {
            Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
            hashes.put(s, List.of(theirHash));
            for (ChainSource b : backers) {
                try {
                    ChainSource.FilterHashBatch r = b.filterHeaders(d, chain.hash(d));
                    checkedHeaders(b, r, d, d, fh.header(d - 1));
                    hashes.put(b, r.filterHashes());
                } catch (SourceException e) {
                    pool.drop(b, SourceFault.Kind.FAILED, -1, e.getMessage());
                } catch (SourcePool.DisputeException e) {
                    pool.drop(b, SourceFault.Kind.LIED, e.height(), e.getMessage());
                }
            }
            settle(d, hashes);
            if (pool.isLive(s) && backers.stream().noneMatch(pool::isLive)) {
                rollBackStored(
                        d, s.name() + " and the sources backing the stored chain disagreed; the block refuted them");
            }
            return;
        }
        Sha256Hash blockHash = chain.hash(d);
        BasicFilter filter = pool.singleFilter(s, d, blockHash);
        if (!filter.filterHash().equals(theirHash)) {
            throw new SourcePool.DisputeException(
                    d, "its filter hashes to " + filter.filterHash() + ", not its committed " + theirHash);
        }
        String refutation = FilterEvidence.of(
                        pool.verifiedBlock(d),
                        op -> wallet.ledger()
                                .ownedOutput(op)
                                .map(TransactionOutput::getScriptBytes)
                                .orElse(null))
                .refute(filter)
                .orElse(null);
        if (refutation != null) {
            throw new SourcePool.DisputeException(
                    d,
                    "contradicts the stored filter headers at height " + d + " and its filter for block " + blockHash
                            + " " + refutation);
        }
        rollBackStored(d, s.name() + " contradicts them and its filter passes every check against the block");
    }

    private void rollBackStored(int height, String why) {
        wallet.filterHeaders().truncate(height - 1);
        wallet.setScannedHeight(Math.min(wallet.scannedHeight(), height - 1));
        rollbacks.add("stored filter headers from height " + height + " dropped and rescanned: " + why);
    }

    /** Highest height some live source can serve on our chain. */
    private int target() {
        int best = -1;
        for (ChainSource s : pool.live()) {
            best = Math.max(best, Math.min(pool.tip(s), wallet.headers().tipHeight()));
        }
        return best;
    }

    /** The source's headers for start..stop, linked from {@code prev} and checked against the agreed checkpoints. */
    private List<Sha256Hash> checkedHeaders(
            ChainSource s, ChainSource.FilterHashBatch r, int start, int stop, Sha256Hash prev) {
        if (r.filterHashes().size() != stop - start + 1) {
            throw new SourcePool.DisputeException(
                    start,
                    "cfheaders has " + r.filterHashes().size() + " filter hashes, expected " + (stop - start + 1));
        }
        if (!r.previousHeader().equals(prev)) {
            throw new SourcePool.DisputeException(
                    start - 1,
                    "cfheaders previous header " + r.previousHeader() + " differs from the verified " + prev);
        }
        List<Sha256Hash> out = new ArrayList<>(r.filterHashes().size());
        Sha256Hash h = prev;
        List<Sha256Hash> cps = wallet.checkpoints();
        for (int i = 0; i < r.filterHashes().size(); i++) {
            h = FilterHeaders.next(r.filterHashes().get(i), h);
            out.add(h);
            int height = start + i;
            if (height > 0 && height % Bip157.CHECKPOINT_INTERVAL == 0) {
                int idx = height / Bip157.CHECKPOINT_INTERVAL - 1;
                if (idx < cps.size() && !cps.get(idx).equals(h)) {
                    throw new SourcePool.DisputeException(
                            height, "filter header " + h + " contradicts the verified checkpoint " + cps.get(idx));
                }
            }
        }
        return out;
    }

    private static int firstDifference(List<List<Sha256Hash>> lists) {
        int n = lists.stream().mapToInt(List::size).min().orElse(0);
        for (int i = 0; i < n; i++) {
            Sha256Hash first = lists.get(0).get(i);
            for (List<Sha256Hash> l : lists) {
                if (!l.get(i).equals(first)) {
                    return i;
                }
            }
        }
        return lists.stream().anyMatch(l -> l.size() != n) ? n : -1;
    }

    /**
     * Settles a disagreement between sources over filter hashes from {@code start}: at the first
     * differing height, the block decides which candidate filters are impossible; sources backing
     * those are dropped as liars. Throws {@link SyncException} if the block cannot decide.
     */
    private void settle(int start, Map<ChainSource, List<Sha256Hash>> hashes) {
        int index = firstDifference(new ArrayList<>(hashes.values()));
        if (index < 0) {
            return;
        }
        int height = start + index;
        Sha256Hash blockHash = wallet.headers().hash(height);
        Map<Sha256Hash, List<ChainSource>> byCandidate = new LinkedHashMap<>();
        for (Map.Entry<ChainSource, List<Sha256Hash>> e : hashes.entrySet()) {
            if (index >= e.getValue().size()) {
                pool.drop(e.getKey(), SourceFault.Kind.LIED, height, "cfheaders stops short of height " + height);
                continue;
            }
            byCandidate
                    .computeIfAbsent(e.getValue().get(index), k -> new ArrayList<>())
                    .add(e.getKey());
        }
        Block block = pool.verifiedBlock(height);
        FilterEvidence evidence = FilterEvidence.of(
                block,
                op -> wallet.ledger()
                        .ownedOutput(op)
                        .map(TransactionOutput::getScriptBytes)
                        .orElse(null));
        List<Sha256Hash> survivors = new ArrayList<>();
        for (Map.Entry<Sha256Hash, List<ChainSource>> c : byCandidate.entrySet()) {
            String refutation = null;
            BasicFilter filter = null;
            for (ChainSource s : c.getValue()) {
                try {
                    filter = pool.singleFilter(s, height, blockHash);
                    if (!filter.filterHash().equals(c.getKey())) {
                        pool.drop(
                                s,
                                SourceFault.Kind.LIED,
                                height,
                                "its filter hashes to " + filter.filterHash() + ", not its committed " + c.getKey());
                        filter = null;
                        continue;
                    }
                    break;
                } catch (SourceException e) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
                } catch (SourcePool.DisputeException e) {
                    pool.drop(s, SourceFault.Kind.LIED, height, e.getMessage());
                }
            }
            if (filter == null) {
                for (ChainSource s : c.getValue()) {
                    if (pool.isLive(s)) {
                        pool.drop(
                                s,
                                SourceFault.Kind.LIED,
                                height,
                                "commits to filter " + c.getKey() + " that no source could produce");
                    }
                }
                continue;
            }
            refutation = evidence.refute(filter).orElse(null);
            if (refutation != null) {
                for (ChainSource s : c.getValue()) {
                    if (pool.isLive(s)) {
                        pool.drop(
                                s,
                                SourceFault.Kind.LIED,
                                height,
                                "its filter for block " + blockHash + " " + refutation);
                    }
                }
            } else {
                survivors.add(c.getKey());
            }
        }
        pool.requireLive("settling the filter dispute at height " + height);
        if (survivors.size() > 1) {
            throw new SyncException(
                    "sources disagree on the filter of block " + blockHash + " at height " + height
                            + " and the block does not settle it (candidates " + survivors + "); refusing to guess",
                    pool.faults());
        }
    }

    // ---------------------------------------------------------------- filters and blocks

    private void scanFilters() {
        int first = Math.max(wallet.scannedHeight() + 1, wallet.birthdayHeight());
        int firstScan = first;
        int stopAt = wallet.filterHeaders().tipHeight();
        progress("filters", firstScan);
        for (int start = first; start <= stopAt; ) {
            // Batches end at multiples of MAX_CFILTERS, so syncs from different starts fetch alike from there on.
            int stop = Math.min(stopAt, (start / Bip157.MAX_CFILTERS + 1) * Bip157.MAX_CFILTERS - 1);
            List<BasicFilter> filters = pool.verifiedFilters(start, stop);
            List<byte[]> watched = watchedScripts();
            TreeSet<Integer> matched = new TreeSet<>();
            Map<Integer, BasicFilter> batch = new HashMap<>();
            for (int i = 0; i < filters.size(); i++) {
                BasicFilter f = filters.get(i);
                batch.put(start + i, f);
                if (filterCache.size() < FILTER_CACHE_LIMIT) {
                    filterCache.put(start + i, f);
                }
                if (!watched.isEmpty() && f.matchAny(watched)) {
                    matched.add(start + i);
                }
            }
            filtersScanned += filters.size();
            Map<Integer, Block> blocks = fetcher.fetchBatch(matched, start, stop, firstScan, h -> {
                BasicFilter f = batch.get(h);
                return f != null ? f : filterCache.get(h);
            });
            Set<OutputScript> fresh = applyBlocks(matched, batch, blocks);
            while (!fresh.isEmpty()) {
                // The window slid: earlier blocks may pay the new scripts.
                fresh = rescan(wallet.birthdayHeight(), stop, fresh);
            }
            wallet.setScannedHeight(stop);
            wallet.save();
            progress("filters", firstScan);
            start = stop + 1;
        }
        wallet.setScannedHeight(Math.max(wallet.scannedHeight(), stopAt));
    }

    private Set<OutputScript> rescan(int from, int to, Set<OutputScript> scripts) {
        List<byte[]> query = scripts.stream().map(OutputScript::bytes).toList();
        TreeSet<Integer> matched = new TreeSet<>();
        for (int start = from; start <= to; ) {
            int stop = Math.min(to, start + Bip157.MAX_CFILTERS - 1);
            boolean cached = true;
            for (int h = start; h <= stop; h++) {
                if (!filterCache.containsKey(h)) {
                    cached = false;
                    break;
                }
            }
            List<BasicFilter> filters = new ArrayList<>();
            if (cached) {
                for (int h = start; h <= stop; h++) {
                    filters.add(filterCache.get(h));
                }
            } else {
                filters = pool.verifiedFilters(start, stop);
            }
            for (int i = 0; i < filters.size(); i++) {
                if (filters.get(i).matchAny(query)) {
                    matched.add(start + i);
                }
            }
            start = stop + 1;
        }
        Map<Integer, BasicFilter> byHeight = new HashMap<>();
        for (int h : matched) {
            BasicFilter f = filterCache.get(h);
            if (f == null) {
                f = pool.verifiedFilters(h, h).get(0);
            }
            byHeight.put(h, f);
        }
        return applyBlocks(matched, byHeight, Map.of());
    }

    /**
     * Applies matched blocks in height order, fetching (through the fetch policy, without decoys) those not in
     * {@code fetched}; returns scripts newly derived by the gap window.
     */
    private Set<OutputScript> applyBlocks(
            TreeSet<Integer> heights, Map<Integer, BasicFilter> filters, Map<Integer, Block> fetched) {
        Set<OutputScript> fresh = new LinkedHashSet<>();
        Ledger ledger = wallet.ledger();
        for (int h : heights) {
            Block block = fetched.containsKey(h) ? fetched.get(h) : fetcher.fetch(h);
            BasicFilter filter = filters.get(h);
            FilterEvidence evidence = FilterEvidence.of(
                    block,
                    op -> ledger.ownedOutput(op)
                            .map(TransactionOutput::getScriptBytes)
                            .orElse(null));
            evidence.refute(filter).ifPresent(why -> {
                throw new SyncException(
                        "the committed filter of block " + block.getHash() + " at height " + h + " " + why
                                + ": every source agreed on a false filter header chain",
                        pool.faults());
            });
            matchedBlocks++;
            for (Transaction tx : block.getTransactions()) {
                if (!ledger.isRelevant(tx)) {
                    continue;
                }
                ledger.put(WalletTx.of(tx, h, block.getHash()));
                for (TransactionOutput out : tx.getOutputs()) {
                    fresh.addAll(wallet.keys().markUsed(OutputScript.of(out.getScriptBytes())));
                }
            }
            progress("blocks");
        }
        return fresh;
    }

    private List<byte[]> watchedScripts() {
        Set<OutputScript> all = new LinkedHashSet<>(wallet.keys().watchedScripts());
        for (Utxo u : wallet.ledger().utxos(false)) {
            all.add(u.script());
        }
        return all.stream().map(OutputScript::bytes).toList();
    }

    private int firstFilter = -1;

    private void progress(String phase) {
        progress(phase, firstFilter);
    }

    private void progress(String phase, int first) {
        firstFilter = first;
        if (listener != null) {
            listener.onProgress(new SyncProgress(
                    phase,
                    wallet.headers().tipHeight(),
                    wallet.filterHeaders().tipHeight(),
                    wallet.scannedHeight(),
                    wallet.headers().tipHeight(),
                    matchedBlocks,
                    first));
        }
    }
}
