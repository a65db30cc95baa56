package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.WalletTx;

/**
 * Step 6 of a sync, filters and blocks: from the scan position (or the birthday) to the verified
 * filter-header tip, filters in batches of at most {@link Bip157#MAX_CFILTERS} from the first live
 * source that serves them verified ({@link SourcePool#verifiedFilters}), each matched against
 * every watched script. Matching blocks are fetched as the {@link FetchPolicy} says ({@link
 * BlockFetcher}; the decoys it adopts are handed to the wallet to keep), the filter is checked against the block again ({@link FilterEvidence}), and the
 * transactions that pay the wallet or spend its outputs become {@link SyncUpdate}s one by one.
 * When that slides the gap window, the range scanned so far is rescanned for the new scripts
 * (filters of this sync are cached). Each batch ends with the scan position. Not thread-safe; one
 * per sync.
 */
final class ScanPhase {
    /** Filters kept in memory per sync for rescans after the gap window slides. */
    private static final int FILTER_CACHE_LIMIT = 50_000;
    /** Filter batches kept for look-backs: a seed window and a look-back window below a batch, and one more. */
    private static final int LOOK_BACK_BATCHES =
            (BlockFetcher.SEED_WINDOW + BlockFetcher.LOOKBACK) / Bip157.MAX_CFILTERS + 3;

    private final SyncState state;
    private final SourcePool pool;
    private final BlockFetcher fetcher;
    private final Map<Integer, BasicFilter> filterCache = new HashMap<>();
    /** Filter batches below this sync's scan fetched for decoy look-backs, the last few by first height. */
    private final Map<Integer, List<BasicFilter>> lookBack = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, List<BasicFilter>> eldest) {
            return size() > LOOK_BACK_BATCHES;
        }
    };

    private int matchedBlocks;
    private int filtersScanned;
    private int firstScan = -1;

    ScanPhase(SyncState state, SourcePool pool, BlockFetcher fetcher) {
        this.state = state;
        this.pool = pool;
        this.fetcher = fetcher;
    }

    int matchedBlocks() {
        return matchedBlocks;
    }

    int filtersScanned() {
        return filtersScanned;
    }

    /** The first height this sync scans (-1 before the scan starts). */
    int firstScan() {
        return firstScan;
    }

    void run(UpdateSink out) {
        int first = Math.max(state.scannedHeight() + 1, state.birthdayHeight());
        firstScan = first;
        int stopAt = state.filterHeaderTip();
        out.progress("filters");
        for (int start = first; start <= stopAt; ) {
            // Batches end at multiples of MAX_CFILTERS, so syncs from different starts fetch alike from there on.
            int stop = Math.min(stopAt, (start / Bip157.MAX_CFILTERS + 1) * Bip157.MAX_CFILTERS - 1);
            List<BasicFilter> filters = pool.verifiedFilters(start, stop);
            List<byte[]> watched = state.watchedScripts();
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
            BlockFetcher.Batch fetched = fetcher.fetchBatch(matched, start, stop, h -> filterAt(h, batch));
            if (!fetched.adopted().isEmpty()) {
                out.apply(SyncUpdate.NONE.withDecoys(fetched.adopted()));
            }
            Map<Integer, Block> blocks = fetched.blocks();
            Set<OutputScript> fresh = applyBlocks(matched, batch, blocks, out);
            while (!fresh.isEmpty()) {
                // The window slid: earlier blocks may pay the new scripts.
                fresh = rescan(state.birthdayHeight(), stop, fresh, out);
            }
            out.apply(SyncUpdate.NONE.withScannedHeight(stop));
            out.stepDone("filters");
            start = stop + 1;
        }
        if (state.scannedHeight() < stopAt) {
            out.apply(SyncUpdate.NONE.withScannedHeight(stopAt));
        }
    }

    private Set<OutputScript> rescan(int from, int to, Set<OutputScript> scripts, UpdateSink out) {
        List<byte[]> query = scripts.stream().map(OutputScript::bytes).toList();
        TreeSet<Integer> matched = new TreeSet<>();
        for (int start = from; start <= to; ) {
            int stop = Math.min(to, start + Bip157.MAX_CFILTERS - 1);
            List<BasicFilter> filters = cached(start, stop);
            if (filters == null) {
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
        return applyBlocks(matched, byHeight, Map.of(), out);
    }

    /**
     * The verified filter at {@code h}: of the batch, cached, or (a decoy's look-back below this sync's scan)
     * fetched with the rest of its filter batch, of which the last few are kept.
     */
    private BasicFilter filterAt(int h, Map<Integer, BasicFilter> batch) {
        BasicFilter f = batch.get(h);
        if (f == null) {
            f = filterCache.get(h);
        }
        if (f != null) {
            return f;
        }
        int chunk = Math.max(state.lowestScanHeight(), h / Bip157.MAX_CFILTERS * Bip157.MAX_CFILTERS);
        List<BasicFilter> got = lookBack.get(chunk);
        if (got == null) {
            int stop = Math.min(state.filterHeaderTip(), (h / Bip157.MAX_CFILTERS + 1) * Bip157.MAX_CFILTERS - 1);
            got = pool.verifiedFilters(chunk, stop);
            lookBack.put(chunk, got);
        }
        return got.get(h - chunk);
    }

    /** The cached filters of start..stop, or null when one is missing. */
    private List<BasicFilter> cached(int start, int stop) {
        List<BasicFilter> out = new ArrayList<>();
        for (int h = start; h <= stop; h++) {
            BasicFilter f = filterCache.get(h);
            if (f == null) {
                return null;
            }
            out.add(f);
        }
        return out;
    }

    /**
     * Applies matched blocks in height order, fetching (through the fetch policy, without decoys) those not in
     * {@code fetched}; returns the scripts the gap window gained.
     */
    private Set<OutputScript> applyBlocks(
            TreeSet<Integer> heights, Map<Integer, BasicFilter> filters, Map<Integer, Block> fetched, UpdateSink out) {
        Set<OutputScript> before = state.windowScripts();
        for (int h : heights) {
            Block block = fetched.containsKey(h) ? fetched.get(h) : fetcher.fetch(h);
            state.evidence(block).refute(filters.get(h)).ifPresent(why -> {
                throw new SyncException(
                        "the committed filter of block " + block.getHash() + " at height " + h + " " + why
                                + ": every source agreed on a false filter header chain",
                        pool.faults());
            });
            matchedBlocks++;
            for (Transaction tx : block.getTransactions()) {
                // One by one: a later transaction of the block may spend an earlier one's output.
                if (state.isRelevant(tx)) {
                    List<OutputScript> outputs = new ArrayList<>();
                    for (TransactionOutput o : tx.getOutputs()) {
                        outputs.add(OutputScript.of(o.getScriptBytes()));
                    }
                    out.apply(SyncUpdate.NONE.withTransactions(List.of(WalletTx.of(tx, h, block.getHash())), outputs));
                }
            }
            out.progress("blocks");
        }
        Set<OutputScript> fresh = state.windowScripts();
        fresh.removeAll(before);
        return fresh;
    }
}
