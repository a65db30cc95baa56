package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.source.ChainSource;

/**
 * Step 2 of a sync, filter-header checkpoints ({@code cfcheckpt}): asked of every live source at
 * the verified tip and compared. Where they differ, the first differing interval is settled by
 * its filter hashes ({@link FilterDispute}); where every source contradicts a checkpoint an earlier
 * sync stored, the filter headers from the last agreed checkpoint on are dropped and rescanned.
 * The agreed checkpoints become a {@link SyncUpdate}. Not thread-safe; one per sync.
 */
final class CheckpointPhase {
    private final SyncState state;
    private final SourcePool pool;
    private final FilterDispute dispute;
    private final List<String> rollbacks = new ArrayList<>();

    CheckpointPhase(SyncState state, SourcePool pool, FilterDispute dispute) {
        this.state = state;
        this.pool = pool;
        this.dispute = dispute;
    }

    /** What was rolled back and why, for the report. */
    List<String> rollbacks() {
        return List.copyOf(rollbacks);
    }

    void run(UpdateSink out) {
        int tip = state.headerTip();
        Sha256Hash tipHash = state.headerTipHash();
        int expected = tip / Bip157.CHECKPOINT_INTERVAL;
        while (true) {
            Map<ChainSource, List<Sha256Hash>> answers = new LinkedHashMap<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < tip) {
                    continue;
                }
                pool.ask(s, src -> {
                            List<Sha256Hash> cps = src.filterCheckpoints(tipHash);
                            if (cps.size() != expected) {
                                throw Misbehaviour.lie(
                                        tip, "cfcheckpt has " + cps.size() + " checkpoints, expected " + expected);
                            }
                            return cps;
                        })
                        .ifPresent(cps -> answers.put(s, cps));
            }
            pool.requireLive("after checkpoints");
            if (answers.isEmpty()) {
                return;
            }
            int first = FilterDispute.firstDifference(new ArrayList<>(answers.values()));
            if (first < 0) {
                out.apply(agreed(answers.values().iterator().next()));
                return;
            }
            settleInterval(first, answers);
        }
    }

    /** The agreed checkpoints; when every source contradicts a stored one, the filter headers from the last agreed one on go. */
    private SyncUpdate agreed(List<Sha256Hash> agreed) {
        List<Sha256Hash> stored = state.checkpoints();
        for (int i = 0; i < Math.min(stored.size(), agreed.size()); i++) {
            if (!stored.get(i).equals(agreed.get(i))) {
                int keep = i * Bip157.CHECKPOINT_INTERVAL;
                if (i == 0 || keep < state.filterHeaderBase() - 1) {
                    keep = state.headerBase() - 1; // from the block-header chain's base
                }
                rollbacks.add("stored checkpoint " + (i + 1) * Bip157.CHECKPOINT_INTERVAL
                        + " contradicted by every source: filter headers from " + (keep + 1)
                        + " dropped and rescanned");
                return SyncUpdate.NONE
                        .withFilterHeadersKeptThrough(keep)
                        .withScannedHeight(Math.min(state.scannedHeight(), keep))
                        .withCheckpoints(agreed);
            }
        }
        return SyncUpdate.NONE.withCheckpoints(agreed);
    }

    /** Settles the first differing checkpoint interval by its filter hashes. */
    private void settleInterval(int first, Map<ChainSource, List<Sha256Hash>> answers) {
        int start = first * Bip157.CHECKPOINT_INTERVAL + (first == 0 ? 0 : 1);
        int stop = (first + 1) * Bip157.CHECKPOINT_INTERVAL;
        if (start < state.headerBase()) {
            throw new SyncException(
                    "sources disagree on the filter-header checkpoint at height " + stop + ", whose interval starts"
                            + " below the wallet's first block header (" + state.headerBase() + "), where no block"
                            + " can settle it; refusing to guess",
                    pool.faults());
        }
        Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
        for (ChainSource s : answers.keySet()) {
            if (!pool.isLive(s)) {
                continue;
            }
            List<Sha256Hash> theirs = answers.get(s);
            pool.ask(s, src -> {
                        ChainSource.FilterHashBatch r = src.filterHeaders(start, state.blockHash(stop));
                        Sha256Hash prev = first == 0 ? FilterHeaders.GENESIS_PREV : theirs.get(first - 1);
                        List<Sha256Hash> headers = dispute.checkedHeaders(r, start, stop, prev);
                        if (!headers.get(headers.size() - 1).equals(theirs.get(first))) {
                            throw Misbehaviour.lie(stop, "its cfheaders do not reach its own checkpoint");
                        }
                        return r.filterHashes();
                    })
                    .ifPresent(h -> hashes.put(s, h));
        }
        dispute.settle(start, hashes);
    }
}
