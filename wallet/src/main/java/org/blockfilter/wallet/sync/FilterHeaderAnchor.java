package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * The filter header just below a block-header chain that starts at a checkpoint: the wallet has no
 * block there to check it against, so it is taken from the sources and cross-checked between
 * them. A disagreement over the filter at the base itself is settled by the block as in any
 * dispute; one over the header below it by the agreed BIP 157 checkpoint that follows (a chain
 * from a false anchor does not reach it). If neither settles it, sync stops rather than guess.
 * Not thread-safe; one per sync.
 */
final class FilterHeaderAnchor {
    private final LightWallet wallet;
    private final SourcePool pool;
    private final BiConsumer<Integer, Map<ChainSource, List<Sha256Hash>>> settle;

    FilterHeaderAnchor(
            LightWallet wallet, SourcePool pool, BiConsumer<Integer, Map<ChainSource, List<Sha256Hash>>> settle) {
        this.wallet = wallet;
        this.pool = pool;
        this.settle = settle;
    }

    void anchor(FilterHeaderChain fh) {
        VerifiedHeaderChain chain = wallet.headers();
        int b = fh.base();
        Map<ChainSource, ChainSource.FilterHashBatch> answers = new LinkedHashMap<>();
        for (ChainSource s : pool.live()) {
            if (pool.tip(s) < b) {
                continue;
            }
            try {
                ChainSource.FilterHashBatch r = s.filterHeaders(b, chain.hash(b));
                if (r.filterHashes().size() != 1) {
                    pool.drop(
                            s,
                            SourceFault.Kind.LIED,
                            b,
                            "cfheaders has " + r.filterHashes().size() + " filter hashes, expected 1");
                    continue;
                }
                answers.put(s, r);
            } catch (SourceException e) {
                pool.drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
            }
        }
        pool.requireLive("taking the filter header below the wallet's first block header");
        if (answers.isEmpty()) {
            throw new SyncException(
                    "no source serves the filter header at the wallet's first block header (height " + b + ")",
                    pool.faults());
        }
        Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
        answers.forEach((s, r) -> hashes.put(s, r.filterHashes()));
        settle.accept(b, hashes);
        Map<Sha256Hash, List<ChainSource>> byAnchor = groups(answers);
        if (byAnchor.size() > 1) {
            byCheckpoint(b, byAnchor);
            byAnchor = groups(answers);
        }
        pool.requireLive("taking the filter header below the wallet's first block header");
        if (byAnchor.size() != 1) {
            throw new SyncException(
                    "sources disagree on the filter header at height " + (b - 1) + ", below the wallet's first block"
                            + " header, and no agreed checkpoint settles it (candidates " + byAnchor.keySet()
                            + "); refusing to guess",
                    pool.faults());
        }
        fh.anchor(byAnchor.keySet().iterator().next());
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
    private void byCheckpoint(int b, Map<Sha256Hash, List<ChainSource>> byAnchor) {
        VerifiedHeaderChain chain = wallet.headers();
        int interval = Bip157.CHECKPOINT_INTERVAL;
        int cpHeight = ((b + interval - 1) / interval) * interval;
        List<Sha256Hash> cps = wallet.checkpoints();
        if (cpHeight == 0 || cpHeight > chain.tipHeight() || cps.size() < cpHeight / interval) {
            return;
        }
        Sha256Hash agreed = cps.get(cpHeight / interval - 1);
        for (Map.Entry<Sha256Hash, List<ChainSource>> e : byAnchor.entrySet()) {
            for (ChainSource s : e.getValue()) {
                try {
                    ChainSource.FilterHashBatch r = s.filterHeaders(b, chain.hash(cpHeight));
                    Sha256Hash h = e.getKey();
                    for (Sha256Hash f : r.filterHashes()) {
                        h = FilterHeaders.next(f, h);
                    }
                    if (r.filterHashes().size() != cpHeight - b + 1 || !h.equals(agreed)) {
                        pool.drop(
                                s,
                                SourceFault.Kind.LIED,
                                cpHeight,
                                "its filter headers from height " + b + " do not reach the agreed checkpoint at "
                                        + cpHeight);
                    }
                } catch (SourceException ex) {
                    pool.drop(s, SourceFault.Kind.FAILED, -1, ex.getMessage());
                }
            }
        }
    }
}
