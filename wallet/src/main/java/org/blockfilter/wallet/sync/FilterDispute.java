package org.blockfilter.wallet.sync;

import java.util.ArrayList;
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
 * Dispute settlement between sources over filter headers: each source's {@code cfheaders} is
 * checked against the verified chain ({@link #checkedHeaders}), and where sources disagree the
 * block at the first differing height decides ({@link #settle}): every candidate filter is
 * fetched and judged by {@link FilterEvidence}, and the sources backing a refuted one are dropped
 * as liars. When the block cannot decide, the sync stops. Not thread-safe; one per sync.
 */
final class FilterDispute {
    private final SyncState state;
    private final SourcePool pool;

    FilterDispute(SyncState state, SourcePool pool) {
        this.state = state;
        this.pool = pool;
    }

    /** The source's headers for start..stop, linked from {@code prev} and checked against the agreed checkpoints. */
    List<Sha256Hash> checkedHeaders(ChainSource.FilterHashBatch r, int start, int stop, Sha256Hash prev) {
        if (r.filterHashes().size() != stop - start + 1) {
            throw Misbehaviour.lie(
                    start,
                    "cfheaders has " + r.filterHashes().size() + " filter hashes, expected " + (stop - start + 1));
        }
        if (!r.previousHeader().equals(prev)) {
            throw Misbehaviour.lie(
                    start - 1,
                    "cfheaders previous header " + r.previousHeader() + " differs from the verified " + prev);
        }
        List<Sha256Hash> out = new ArrayList<>(r.filterHashes().size());
        Sha256Hash h = prev;
        List<Sha256Hash> cps = state.checkpoints();
        for (int i = 0; i < r.filterHashes().size(); i++) {
            h = FilterHeaders.next(r.filterHashes().get(i), h);
            out.add(h);
            int height = start + i;
            if (height > 0 && height % Bip157.CHECKPOINT_INTERVAL == 0) {
                int idx = height / Bip157.CHECKPOINT_INTERVAL - 1;
                if (idx < cps.size() && !cps.get(idx).equals(h)) {
                    throw Misbehaviour.lie(
                            height, "filter header " + h + " contradicts the verified checkpoint " + cps.get(idx));
                }
            }
        }
        return out;
    }

    /** The first index where the lists differ (or where the shorter ends); -1 when they are equal. */
    static int firstDifference(List<List<Sha256Hash>> lists) {
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
    void settle(int start, Map<ChainSource, List<Sha256Hash>> hashes) {
        int index = firstDifference(new ArrayList<>(hashes.values()));
        if (index < 0) {
            return;
        }
        int height = start + index;
        Sha256Hash blockHash = state.blockHash(height);
        Map<Sha256Hash, List<ChainSource>> byCandidate = new LinkedHashMap<>();
        for (Map.Entry<ChainSource, List<Sha256Hash>> e : hashes.entrySet()) {
            if (index >= e.getValue().size()) {
                pool.drop(e.getKey(), Misbehaviour.lie(height, "cfheaders stops short of height " + height));
                continue;
            }
            byCandidate
                    .computeIfAbsent(e.getValue().get(index), k -> new ArrayList<>())
                    .add(e.getKey());
        }
        FilterEvidence evidence = state.evidence(pool.verifiedBlock(height));
        List<Sha256Hash> survivors = new ArrayList<>();
        for (Map.Entry<Sha256Hash, List<ChainSource>> c : byCandidate.entrySet()) {
            Sha256Hash candidate = c.getKey();
            Optional<BasicFilter> filter = Optional.empty();
            for (ChainSource s : c.getValue()) {
                filter = pool.ask(s, src -> committedFilter(src, height, blockHash, candidate));
                if (filter.isPresent()) {
                    break;
                }
            }
            String refutation = filter.isEmpty()
                    ? "commits to filter " + candidate + " that no source could produce"
                    : evidence.refute(filter.get())
                            .map(why -> "its filter for block " + blockHash + " " + why)
                            .orElse(null);
            if (refutation == null) {
                survivors.add(candidate);
                continue;
            }
            for (ChainSource s : c.getValue()) {
                if (pool.isLive(s)) {
                    pool.drop(s, Misbehaviour.lie(height, refutation));
                }
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

    /** The source's filter for the block at {@code height}, which must hash to {@code committed}. */
    static BasicFilter committedFilter(ChainSource s, int height, Sha256Hash blockHash, Sha256Hash committed) {
        BasicFilter filter = SourcePool.singleFilter(s, height, blockHash);
        if (!filter.filterHash().equals(committed)) {
            throw Misbehaviour.lie(
                    height, "its filter hashes to " + filter.filterHash() + ", not its committed " + committed);
        }
        return filter;
    }
}
