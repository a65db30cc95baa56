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
 * The filter header just below a block-header chain that starts at a checkpoint: the wallet has no
 * block there to check it against, so it is taken from the sources and cross-checked between
 * them. A disagreement over the filter at the base itself is settled by the block as in any
 * dispute ({@link FilterDispute#settle}); one over the header below it by the agreed BIP 157
 * checkpoint that follows (a chain from a false anchor does not reach it). If neither settles it,
 * sync stops rather than guess. Not thread-safe; one per sync.
 */
final class FilterHeaderAnchor {
    private final SyncState state;
    private final SourcePool pool;
    private final FilterDispute dispute;

    FilterHeaderAnchor(SyncState state, SourcePool pool, FilterDispute dispute) {
        this.state = state;
        this.pool = pool;
        this.dispute = dispute;
    }

    /** The filter header at {@code base - 1} that the live sources agree on. */
    Sha256Hash agreed(int base) {
        Map<ChainSource, ChainSource.FilterHashBatch> answers = new LinkedHashMap<>();
        for (ChainSource s : pool.live()) {
            if (pool.tip(s) < base) {
                continue;
            }
            pool.ask(s, src -> {
                        ChainSource.FilterHashBatch r = src.filterHeaders(base, state.blockHash(base));
                        if (r.filterHashes().size() != 1) {
                            throw Misbehaviour.lie(
                                    base, "cfheaders has " + r.filterHashes().size() + " filter hashes, expected 1");
                        }
                        return r;
                    })
                    .ifPresent(r -> answers.put(s, r));
        }
        pool.requireLive("taking the filter header below the wallet's first block header");
        if (answers.isEmpty()) {
            throw new SyncException(
                    "no source serves the filter header at the wallet's first block header (height " + base + ")",
                    pool.faults());
        }
        Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
        answers.forEach((s, r) -> hashes.put(s, r.filterHashes()));
        dispute.settle(base, hashes);
        Map<Sha256Hash, List<ChainSource>> byAnchor = groups(answers);
        if (byAnchor.size() > 1) {
            byCheckpoint(base, byAnchor);
            byAnchor = groups(answers);
        }
        pool.requireLive("taking the filter header below the wallet's first block header");
        if (byAnchor.size() != 1) {
            throw new SyncException(
                    "sources disagree on the filter header at height " + (base - 1) + ", below the wallet's first"
                            + " block header, and no agreed checkpoint settles it (candidates " + byAnchor.keySet()
                            + "); refusing to guess",
                    pool.faults());
        }
        return byAnchor.keySet().iterator().next();
    }

    private Map<Sha256Hash, List<ChainSource>> groups(Map<ChainSource, ChainSource.FilterHashBatch> answers) {
        Map<Sha256Hash, List<ChainSource>> out = new LinkedHashMap<>();
        answers.forEach((s, r) -> {
            if (pool.isLive(s)) {
                out.computeIfAbsent(r.previousHeader(), k -> new ArrayList<>()).add(s);
            }
        });
        return out;
    }

    /** Drops, as liars, the sources whose chain from their anchor misses the next agreed checkpoint. */
    private void byCheckpoint(int base, Map<Sha256Hash, List<ChainSource>> byAnchor) {
        int interval = Bip157.CHECKPOINT_INTERVAL;
        int cpHeight = ((base + interval - 1) / interval) * interval;
        List<Sha256Hash> cps = state.checkpoints();
        if (cpHeight == 0 || cpHeight > state.headerTip() || cps.size() < cpHeight / interval) {
            return;
        }
        Sha256Hash agreed = cps.get(cpHeight / interval - 1);
        byAnchor.forEach((anchor, sources) -> {
            for (ChainSource s : sources) {
                pool.ask(s, src -> {
                    ChainSource.FilterHashBatch r = src.filterHeaders(base, state.blockHash(cpHeight));
                    Sha256Hash h = anchor;
                    for (Sha256Hash f : r.filterHashes()) {
                        h = FilterHeaders.next(f, h);
                    }
                    if (r.filterHashes().size() != cpHeight - base + 1 || !h.equals(agreed)) {
                        throw Misbehaviour.lie(
                                cpHeight,
                                "its filter headers from height " + base + " do not reach the agreed checkpoint at "
                                        + cpHeight);
                    }
                    return r;
                });
            }
        });
    }
}
