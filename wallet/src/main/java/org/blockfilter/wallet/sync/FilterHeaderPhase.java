package org.blockfilter.wallet.sync;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.wallet.source.ChainSource;

/**
 * Step 4 of a sync, filter headers: in batches of {@link Bip157#MAX_CFHEADERS} up to the highest
 * height a live source can serve on the verified chain, from every live source. Each answer must
 * start from the verified previous header, link, and hit every agreed checkpoint ({@link
 * FilterDispute#checkedHeaders}); the answers are compared, and a disagreement is settled by the
 * block ({@link FilterDispute#settle}). Each agreed batch is a {@link SyncUpdate}. A wallet born
 * past a checkpoint starts its filter headers there instead of at the block-header chain's base.
 * Not thread-safe; one per sync.
 */
final class FilterHeaderPhase {
    private final SyncState state;
    private final SourcePool pool;
    private final FilterDispute dispute;

    FilterHeaderPhase(SyncState state, SourcePool pool, FilterDispute dispute) {
        this.state = state;
        this.pool = pool;
        this.dispute = dispute;
    }

    /**
     * Where a wallet with no filter headers yet starts them: the BIP 157 checkpoint at or below its
     * birthday when that is at or above the block-header chain's base; otherwise that base, with the
     * filter header below it agreed by the sources ({@link FilterHeaderAnchor}).
     */
    void startAtBirthday(UpdateSink out) {
        int base = state.headerBase();
        int birthday = Math.min(state.birthdayHeight(), state.headerTip() + 1);
        int aligned = (birthday - 1) / Bip157.CHECKPOINT_INTERVAL;
        if (state.filterHeaderBase() == base
                && state.filterHeaderTip() < base
                && aligned * Bip157.CHECKPOINT_INTERVAL >= base
                && aligned >= 1
                && state.checkpoints().size() >= aligned) {
            out.apply(SyncUpdate.NONE.withFilterHeaderStart(
                    aligned * Bip157.CHECKPOINT_INTERVAL + 1,
                    state.checkpoints().get(aligned - 1)));
        } else if (!state.filterHeadersAnchored() && state.filterHeaderBase() <= state.headerTip()) {
            int start = state.filterHeaderBase();
            out.apply(SyncUpdate.NONE.withFilterHeaderStart(
                    start, new FilterHeaderAnchor(state, pool, dispute).agreed(start)));
        }
    }

    void run(UpdateSink out) {
        int target = target();
        while (state.filterHeaderTip() < target) {
            int start = state.filterHeaderTip() + 1;
            int stop = Math.min(target, start + Bip157.MAX_CFHEADERS - 1);
            Sha256Hash prev = state.filterHeader(start - 1);
            Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
            Map<ChainSource, List<Sha256Hash>> headersBySource = new LinkedHashMap<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < stop) {
                    continue;
                }
                pool.ask(s, src -> {
                    ChainSource.FilterHashBatch r = src.filterHeaders(start, state.blockHash(stop));
                    headersBySource.put(src, dispute.checkedHeaders(r, start, stop, prev));
                    hashes.put(src, r.filterHashes());
                    return r;
                });
            }
            pool.requireLive("during filter-header sync");
            if (hashes.isEmpty()) {
                break;
            }
            if (FilterDispute.firstDifference(List.copyOf(hashes.values())) >= 0) {
                dispute.settle(start, hashes);
                continue;
            }
            out.apply(SyncUpdate.NONE.withFilterHeaders(
                    headersBySource.values().iterator().next()));
            out.stepDone("filter headers");
        }
    }

    /** Highest height some live source can serve on our chain. */
    private int target() {
        int best = -1;
        for (ChainSource s : pool.live()) {
            best = Math.max(best, Math.min(pool.tip(s), state.headerTip()));
        }
        return best;
    }
}
