package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.InvalidAnswerException;
import org.blockfilter.wallet.source.SourceException;

/**
 * The sources a sync still trusts, their tips, and why the others were dropped. Every request to
 * a source goes through {@link #ask}, and every verdict on a source through {@link #classify}:
 * anything it sent that fails verification is {@code LIED}; a transport failure, timeout or
 * refusal is {@code FAILED}; a valid chain with less work is {@code WEAKER_CHAIN}; a chain of
 * another network is {@code OTHER_NETWORK}. Also fetches filters and blocks from the first live
 * source that serves them correctly (checked against the wallet's verified headers). Not
 * thread-safe; one per sync.
 */
final class SourcePool {
    private final SyncState state;
    private final NetworkParameters params;
    private final List<ChainSource> live;
    private final Map<ChainSource, Integer> tips = new HashMap<>();
    private final List<SourceFault> faults = new ArrayList<>();

    /** One or more requests to one source, checked; throws what the source did wrong. Never returns null. */
    interface Request<T> {
        T ask(ChainSource s);
    }

    SourcePool(SyncState state, List<? extends ChainSource> sources) {
        this.state = state;
        this.params = NetworkParameters.of(state.network());
        this.live = new ArrayList<>(sources);
    }

    /**
     * {@code request}'s answer from {@code s}; empty when the request shows that {@code s} cannot be
     * trusted any more, in which case it is dropped as {@link #classify} says. Anything that is not
     * about the source (a {@link SyncException}, a bug) is thrown on.
     */
    <T> Optional<T> ask(ChainSource s, Request<T> request) {
        try {
            return Optional.of(request.ask(s));
        } catch (RuntimeException e) {
            drop(s, e);
            return Optional.empty();
        }
    }

    /**
     * {@code request} asked of every source in {@code sources} at once, each on its own thread, so
     * that a slow or silent source delays the others by nothing; the answers of those that gave
     * one, in the order of {@code sources}. The others are dropped as {@link #ask} drops them.
     */
    <T> Map<ChainSource, T> askEach(List<ChainSource> sources, Request<T> request) {
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, sources.size()), r -> {
            Thread t = new Thread(r, "sync-request");
            t.setDaemon(true);
            return t;
        });
        try {
            Map<ChainSource, Future<T>> pending = new LinkedHashMap<>();
            for (ChainSource s : sources) {
                pending.put(s, threads.submit(() -> request.ask(s)));
            }
            Map<ChainSource, T> answers = new LinkedHashMap<>();
            pending.forEach((s, f) -> ask(s, src -> join(f)).ifPresent(a -> answers.put(s, a)));
            return answers;
        } finally {
            threads.shutdownNow();
        }
    }

    /** The request's answer, or what it threw. */
    private static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SyncException("interrupted while waiting for the sources", List.of());
        }
    }

    /** Drops {@code s} for {@code why}, classified; throws {@code why} on when it is not about the source. */
    void drop(ChainSource s, RuntimeException why) {
        SourceFault fault = classify(s.name(), why);
        if (fault == null) {
            throw why;
        }
        if (live.remove(s)) {
            faults.add(fault);
        }
    }

    /** The one place that says what a failed request makes of its source; null when it is not the source's fault. */
    static SourceFault classify(String source, RuntimeException e) {
        if (e instanceof Misbehaviour m) {
            return new SourceFault(source, m.kind(), m.height(), m.getMessage());
        }
        if (e instanceof InvalidHeaderException h) {
            return new SourceFault(source, SourceFault.Kind.LIED, h.height(), "bad block header: " + h.getMessage());
        }
        if (e instanceof InvalidBlockException b) {
            return new SourceFault(source, SourceFault.Kind.LIED, b.height(), b.getMessage());
        }
        if (e instanceof InvalidAnswerException a) {
            return new SourceFault(source, SourceFault.Kind.LIED, -1, a.getMessage());
        }
        if (e instanceof SourceException f) {
            return new SourceFault(source, SourceFault.Kind.FAILED, -1, f.getMessage());
        }
        return null;
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

    void requireLive(String when) {
        if (live.isEmpty()) {
            throw new SyncException("no usable source left " + when, faults);
        }
    }

    /** Filters for start..stop from the first live source that serves them correctly; liars are dropped. */
    List<BasicFilter> verifiedFilters(int start, int stop) {
        for (ChainSource s : live()) {
            if (tip(s) < stop) {
                continue;
            }
            Optional<List<BasicFilter>> got = ask(s, src -> checkedFilters(src, start, stop));
            if (got.isPresent()) {
                return got.get();
            }
        }
        throw new SyncException(
                "no source left that serves verified filters for heights " + start + ".." + stop, faults);
    }

    private List<BasicFilter> checkedFilters(ChainSource s, int start, int stop) {
        List<ChainSource.BlockFilterBytes> got = s.filters(start, state.blockHash(stop));
        if (got.size() != stop - start + 1) {
            throw Misbehaviour.lie(
                    start, "cfilters returned " + got.size() + " filters, expected " + (stop - start + 1));
        }
        List<BasicFilter> out = new ArrayList<>(got.size());
        for (int i = 0; i < got.size(); i++) {
            int h = start + i;
            ChainSource.BlockFilterBytes b = got.get(i);
            if (!b.blockHash().equals(state.blockHash(h))) {
                throw Misbehaviour.lie(h, "filter is for block " + b.blockHash() + ", expected " + state.blockHash(h));
            }
            BasicFilter f = parse(h, b.blockHash(), b.filter());
            if (!FilterHeaders.next(f.filterHash(), state.filterHeader(h - 1)).equals(state.filterHeader(h))) {
                throw Misbehaviour.lie(h, "filter does not hash to its committed filter header");
            }
            out.add(f);
        }
        return out;
    }

    /** The source's filter for one block, parsed; a {@link Misbehaviour} when it is missing or malformed. */
    static BasicFilter singleFilter(ChainSource s, int height, Sha256Hash blockHash) {
        List<ChainSource.BlockFilterBytes> got = s.filters(height, blockHash);
        if (got.size() != 1 || !got.get(0).blockHash().equals(blockHash)) {
            throw Misbehaviour.lie(height, "cfilter for block " + blockHash + " missing or for another block");
        }
        return parse(height, blockHash, got.get(0).filter());
    }

    private static BasicFilter parse(int height, Sha256Hash blockHash, byte[] bytes) {
        try {
            return BasicFilter.fromBytes(blockHash, bytes);
        } catch (IllegalArgumentException e) {
            throw Misbehaviour.lie(height, "malformed filter: " + e.getMessage());
        }
    }

    Block verifiedBlock(int height) {
        return verifiedBlock(height, null);
    }

    /** The verified block from {@code preferred} (if live and not null) first, then the other live sources in order. */
    Block verifiedBlock(int height, ChainSource preferred) {
        Sha256Hash hash = state.blockHash(height);
        List<ChainSource> order = live();
        if (preferred != null && order.remove(preferred)) {
            order.add(0, preferred);
        }
        for (ChainSource s : order) {
            Optional<Block> b = ask(s, src -> BlockCheck.verify(params, src.block(hash), hash, height));
            if (b.isPresent()) {
                return b.get();
            }
        }
        throw new SyncException("no source left that serves block " + hash + " at height " + height, faults);
    }
}
