package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.SourceException;

/**
 * The sources a sync still trusts, their tips, and why the others were dropped; fetches filters
 * and blocks from the first live source that serves them correctly (checked against the wallet's
 * verified headers), dropping the ones that do not. Not thread-safe; one per sync.
 */
final class SourcePool {
    private final LightWallet wallet;
    private final NetworkParameters params;
    private final List<ChainSource> live;
    private final Map<ChainSource, Integer> tips = new HashMap<>();
    private final List<SourceFault> faults = new ArrayList<>();

    SourcePool(LightWallet wallet, NetworkParameters params, List<? extends ChainSource> sources) {
        this.wallet = wallet;
        this.params = params;
        this.live = new ArrayList<>(sources);
    }

    /** A copy of the live sources, in the order given. */
    List<ChainSource> live() {
        return new ArrayList<>(live);
    }

    boolean isLive(ChainSource s) {
        return live.contains(s);
    }

    int tip(ChainSource s) {
        return tips.get(s);
    }

    void setTip(ChainSource s, int tip) {
        tips.put(s, tip);
    }

    List<SourceFault> faults() {
        return List.copyOf(faults);
    }

    /** Filters for start..stop from the first live source that serves them correctly; liars are dropped. */
    List<BasicFilter> verifiedFilters(int start, int stop) {
        VerifiedHeaderChain chain = wallet.headers();
        FilterHeaderChain fh = wallet.filterHeaders();
        for (ChainSource s : live()) {
            if (tip(s) < stop) {
                continue;
            }
            try {
                List<ChainSource.BlockFilterBytes> got = s.filters(start, chain.hash(stop));
                if (got.size() != stop - start + 1) {
                    throw new DisputeException(
                            start, "cfilters returned " + got.size() + " filters, expected " + (stop - start + 1));
                }
                List<BasicFilter> out = new ArrayList<>(got.size());
                for (int i = 0; i < got.size(); i++) {
                    int h = start + i;
                    ChainSource.BlockFilterBytes b = got.get(i);
                    if (!b.blockHash().equals(chain.hash(h))) {
                        throw new DisputeException(
                                h, "filter is for block " + b.blockHash() + ", expected " + chain.hash(h));
                    }
                    BasicFilter f;
                    try {
                        f = BasicFilter.fromBytes(b.blockHash(), b.filter());
                    } catch (IllegalArgumentException e) {
                        throw new DisputeException(h, "malformed filter: " + e.getMessage());
                    }
                    if (!FilterHeaders.next(f.filterHash(), fh.header(h - 1)).equals(fh.header(h))) {
                        throw new DisputeException(h, "filter does not hash to its committed filter header");
                    }
                    out.add(f);
                }
                return out;
            } catch (SourceException e) {
                drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
            } catch (DisputeException e) {
                drop(s, SourceFault.Kind.LIED, e.height(), e.getMessage());
            }
        }
        throw new SyncException(
                "no source left that serves verified filters for heights " + start + ".." + stop, faults);
    }

    BasicFilter singleFilter(ChainSource s, int height, Sha256Hash blockHash) {
        List<ChainSource.BlockFilterBytes> got = s.filters(height, blockHash);
        if (got.size() != 1 || !got.get(0).blockHash().equals(blockHash)) {
            throw new DisputeException(height, "cfilter for block " + blockHash + " missing or for another block");
        }
        try {
            return BasicFilter.fromBytes(blockHash, got.get(0).filter());
        } catch (IllegalArgumentException e) {
            throw new DisputeException(height, "malformed filter: " + e.getMessage());
        }
    }

    Block verifiedBlock(int height) {
        return verifiedBlock(height, null);
    }

    /** The verified block from {@code preferred} (if live and not null) first, then the other live sources in order. */
    Block verifiedBlock(int height, ChainSource preferred) {
        Sha256Hash hash = wallet.headers().hash(height);
        List<ChainSource> order = live();
        if (preferred != null && order.remove(preferred)) {
            order.add(0, preferred);
        }
        for (ChainSource s : order) {
            try {
                return BlockCheck.verify(params, s.block(hash), hash, height);
            } catch (InvalidBlockException e) {
                drop(s, SourceFault.Kind.LIED, height, e.getMessage());
            } catch (SourceException e) {
                drop(s, SourceFault.Kind.FAILED, -1, e.getMessage());
            }
        }
        throw new SyncException("no source left that serves block " + hash + " at height " + height, faults);
    }

    // ---------------------------------------------------------------- bookkeeping

    void drop(ChainSource s, SourceFault.Kind kind, int height, String reason) {
        if (live.remove(s)) {
            faults.add(new SourceFault(s.name(), kind, height, reason));
        }
    }

    void requireLive(String when) {
        if (live.isEmpty()) {
            throw new SyncException("no usable source left " + when, faults);
        }
    }

    /** A source's answer contradicts verified data or itself. */
    static final class DisputeException extends RuntimeException {
        private final int height;

        DisputeException(int height, String message) {
            super(message);
            this.height = height;
        }

        int height() {
            return height;
        }
    }
}
