package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.source.ChainSource;

/**
 * The stored filter headers came from earlier syncs and are only as good as the sources that
 * served them, so they are checked against the live sources before new ones are fetched: the
 * stored tip on every sync ({@link #checkTip}), every stored header on {@code verify} ({@link
 * #checkAll}). A source that disagrees is heard out, not convicted: where its chain first differs,
 * the block judges its filter. Refuted: it lied. Not refuted and no live source backs the stored
 * chain: the stored headers from there are dropped and rescanned. Backed: an ordinary {@link
 * FilterDispute}. Not thread-safe; one per sync.
 */
final class StoredFilterHeaders {
    private final SyncState state;
    private final SourcePool pool;
    private final FilterDispute dispute;
    private final List<String> rollbacks = new ArrayList<>();

    StoredFilterHeaders(SyncState state, SourcePool pool, FilterDispute dispute) {
        this.state = state;
        this.pool = pool;
        this.dispute = dispute;
    }

    /** What was rolled back and why, for the report. */
    List<String> rollbacks() {
        return List.copyOf(rollbacks);
    }

    /** Every live source is asked for the filter header at the stored tip. */
    void checkTip(UpdateSink out) {
        while (true) {
            int tip = state.filterHeaderTip();
            if (tip < state.filterHeaderBase()) {
                return;
            }
            List<ChainSource> backers = new ArrayList<>();
            List<ChainSource> against = new ArrayList<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < tip) {
                    continue;
                }
                pool.ask(s, src -> headerAt(src, tip))
                        .ifPresent(theirs -> (theirs.equals(state.filterHeader(tip)) ? backers : against).add(s));
            }
            pool.requireLive("checking the stored filter headers");
            if (against.isEmpty()) {
                return;
            }
            ChainSource s = against.get(0);
            pool.ask(s, src -> {
                Divergence div = firstDivergence(src);
                if (div == null) {
                    throw Misbehaviour.lie(tip, "its filter header at the stored tip contradicts its own cfheaders");
                }
                judge(src, div, backers, out);
                return div;
            });
            pool.requireLive("checking the stored filter headers");
        }
    }

    private Sha256Hash headerAt(ChainSource s, int height) {
        ChainSource.FilterHashBatch r = s.filterHeaders(height, state.blockHash(height));
        if (r.filterHashes().size() != 1) {
            throw Misbehaviour.lie(height, "cfheaders has " + r.filterHashes().size() + " filter hashes, expected 1");
        }
        return FilterHeaders.next(r.filterHashes().get(0), r.previousHeader());
    }

    /**
     * {@code verify}: every stored filter header (not only the tip, which each sync checks) is
     * compared with every live source, so a file edited in the middle of its chain is found too.
     * Costs 32 bytes per stored height per source.
     */
    void checkAll(UpdateSink out) {
        while (true) {
            Map<ChainSource, Divergence> found = new LinkedHashMap<>();
            List<ChainSource> agreeing = new ArrayList<>();
            for (ChainSource s : pool.live()) {
                if (pool.tip(s) < state.filterHeaderTip()) {
                    continue;
                }
                pool.ask(s, src -> Optional.ofNullable(firstDivergence(src)))
                        .ifPresent(d -> d.ifPresentOrElse(div -> found.put(s, div), () -> agreeing.add(s)));
            }
            pool.requireLive("verifying the stored filter headers");
            if (found.isEmpty()) {
                return;
            }
            Map.Entry<ChainSource, Divergence> first = found.entrySet().stream()
                    .min(Comparator.comparingInt(e -> e.getValue().height()))
                    .orElseThrow();
            int h = first.getValue().height();
            List<ChainSource> backers = new ArrayList<>(agreeing);
            found.forEach((s, d) -> {
                if (d.height() > h) {
                    backers.add(s);
                }
            });
            pool.ask(first.getKey(), src -> {
                judge(src, first.getValue(), backers, out);
                return first.getValue();
            });
            pool.requireLive("verifying the stored filter headers");
        }
    }

    /** Where a source's filter-header chain first differs from the stored one, and its filter hash there. */
    private record Divergence(int height, Sha256Hash filterHash) {}

    /** Downloads the source's filter headers over the whole stored range; null when they all agree. */
    private Divergence firstDivergence(ChainSource s) {
        Sha256Hash prev = state.filterHeaderAnchor();
        int tip = state.filterHeaderTip();
        for (int start = state.filterHeaderBase(); start <= tip; ) {
            int stop = Math.min(tip, start + Bip157.MAX_CFHEADERS - 1);
            ChainSource.FilterHashBatch r = s.filterHeaders(start, state.blockHash(stop));
            List<Sha256Hash> headers = dispute.checkedHeaders(r, start, stop, prev);
            for (int i = 0; i < headers.size(); i++) {
                if (!headers.get(i).equals(state.filterHeader(start + i))) {
                    return new Divergence(start + i, r.filterHashes().get(i));
                }
            }
            prev = headers.get(headers.size() - 1);
            start = stop + 1;
        }
        return null;
    }

    /**
     * {@code s} contradicts the stored chain from {@code div}: with backers, an ordinary dispute
     * between them; without, the block at that height judges {@code s}'s filter (refuted: a
     * {@link Misbehaviour}; not refuted: the stored chain is rolled back to just below it).
     */
    private void judge(ChainSource s, Divergence div, List<ChainSource> backers, UpdateSink out) {
        int d = div.height();
        Sha256Hash theirHash = div.filterHash();
        if (!backers.isEmpty()) {
            Map<ChainSource, List<Sha256Hash>> hashes = new LinkedHashMap<>();
            hashes.put(s, List.of(theirHash));
            for (ChainSource b : backers) {
                pool.ask(b, src -> {
                            ChainSource.FilterHashBatch r = src.filterHeaders(d, state.blockHash(d));
                            dispute.checkedHeaders(r, d, d, state.filterHeader(d - 1));
                            return r.filterHashes();
                        })
                        .ifPresent(h -> hashes.put(b, h));
            }
            dispute.settle(d, hashes);
            if (pool.isLive(s) && backers.stream().noneMatch(pool::isLive)) {
                rollBack(
                        d,
                        s.name() + " and the sources backing the stored chain disagreed; the block refuted them",
                        out);
            }
            return;
        }
        Sha256Hash blockHash = state.blockHash(d);
        BasicFilter filter = FilterDispute.committedFilter(s, d, blockHash, theirHash);
        String refutation = state.evidence(pool.verifiedBlock(d)).refute(filter).orElse(null);
        if (refutation != null) {
            throw Misbehaviour.lie(
                    d,
                    "contradicts the stored filter headers at height " + d + " and its filter for block " + blockHash
                            + " " + refutation);
        }
        rollBack(d, s.name() + " contradicts them and its filter passes every check against the block", out);
    }

    private void rollBack(int height, String why, UpdateSink out) {
        out.apply(SyncUpdate.NONE
                .withFilterHeadersKeptThrough(height - 1)
                .withScannedHeight(Math.min(state.scannedHeight(), height - 1)));
        rollbacks.add("stored filter headers from height " + height + " dropped and rescanned: " + why);
    }
}
