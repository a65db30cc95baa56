package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.WalletUpdates;
import org.blockfilter.wallet.source.ChainSource;

/**
 * Syncs a {@link LightWallet} from one or more untrusted {@link ChainSource}s (BIP 157/158), phase
 * by phase: block headers ({@link HeaderPhase}), filter-header checkpoints ({@link
 * CheckpointPhase}), the stored filter headers against the live sources ({@link
 * StoredFilterHeaders}), new filter headers ({@link FilterHeaderPhase}), with disagreements
 * settled by the block ({@link FilterDispute}), then filters and blocks ({@link ScanPhase}, with the
 * {@link FetchPolicy}'s {@link BlockFetcher}). The phases read the wallet through a read-only
 * {@link SyncState}, ask sources only through the {@link SourcePool} (which alone decides what a
 * failed request makes of its source), and return what they verified as {@link SyncUpdate}s,
 * which the wallet applies in one place ({@link WalletUpdates#apply}); the wallet is saved after
 * each verified step.
 *
 * <p>The balance is never silently wrong: when no honest source is left or a dispute cannot be
 * settled, sync stops with a {@link SyncException} and the wallet keeps its last verified state.
 *
 * <p>Another wallet is synced the same way through a {@link SyncTarget}: {@link #syncChains()} runs
 * every phase but the scan, and {@link #verifiedFilters} and {@link #matchedBlock} give a scan of
 * its own the filters and blocks, checked and their sources judged as in {@link ScanPhase}.
 *
 * <p>Not thread-safe; one engine per sync.
 */
public final class SyncEngine {
    private final SyncTarget wallet;
    private final SyncState state;
    private final SourcePool pool;
    private final SyncProgress.Listener listener;
    private final FetchPolicy policy;
    private final BlockFetcher fetcher;
    private final HeaderPhase headers;
    private final CheckpointPhase checkpoints;
    private final StoredFilterHeaders stored;
    private final FilterHeaderPhase filterHeaders;
    private final ScanPhase scan;
    private final UpdateSink sink = new UpdateSink() {
        @Override
        public void apply(SyncUpdate update) {
            wallet.apply(update);
        }

        @Override
        public void stepDone(String phase) {
            wallet.save();
            progress(phase);
        }

        @Override
        public void progress(String phase) {
            SyncEngine.this.progress(phase);
        }
    };

    /**
     * How an engine runs, beyond what it syncs and from where: its progress listener, its block-fetch privacy policy
     * and how it waits out the policy's jitter pauses. Immutable; compares its listener and pause by reference. Start
     * from {@link #defaults()} and change what differs with the {@code withX} copies.
     *
     * @param listener called with each progress value on the syncing thread; null for none
     * @param fetchPolicy which blocks are fetched from which source, with which decoys, in what order
     * @param pause called with each jitter pause in milliseconds: it sleeps in production; a simulation advances
     *     its own clock
     */
    public record Options(SyncProgress.Listener listener, FetchPolicy fetchPolicy, LongConsumer pause) {
        private static final Options DEFAULTS = new Options(null, FetchPolicy.DEFAULT, SyncEngine::sleep);

        /** Refuses a null fetch policy or pause. */
        public Options {
            Objects.requireNonNull(fetchPolicy, "fetchPolicy");
            Objects.requireNonNull(pause, "pause");
        }

        /** No progress listener, the {@link FetchPolicy#DEFAULT default} fetch policy, pauses that sleep. */
        public static Options defaults() {
            return DEFAULTS;
        }

        /** These options with progress reported to {@code listener} (null: not reported). */
        public Options withListener(SyncProgress.Listener listener) {
            return new Options(listener, fetchPolicy, pause);
        }

        /** These options with blocks fetched under {@code fetchPolicy}. */
        public Options withFetchPolicy(FetchPolicy fetchPolicy) {
            return new Options(listener, fetchPolicy, pause);
        }

        /** These options with each jitter pause handed to {@code pause} (in milliseconds) instead of slept. */
        public Options withPause(LongConsumer pause) {
            return new Options(listener, fetchPolicy, pause);
        }
    }

    /** An engine that syncs {@code wallet} from {@code sources} and saves it after each verified step. */
    public SyncEngine(LightWallet wallet, List<? extends ChainSource> sources, Options options) {
        this(new LightWalletTarget(wallet), sources, options);
    }

    /**
     * An engine that keeps {@code target} in step with {@code sources}: updates go to {@link SyncTarget#apply}, and
     * {@link SyncTarget#save} is called after each verified step.
     */
    public SyncEngine(SyncTarget target, List<? extends ChainSource> sources, Options options) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("at least one chain source is required");
        }
        this.wallet = Objects.requireNonNull(target, "target");
        this.state = new SyncState(wallet);
        this.pool = new SourcePool(state, sources);
        this.listener = options.listener();
        this.policy = options.fetchPolicy();
        this.fetcher = new BlockFetcher(state, pool, policy, options.pause());
        FilterDispute dispute = new FilterDispute(state, pool);
        this.headers = new HeaderPhase(state, pool);
        this.checkpoints = new CheckpointPhase(state, pool, dispute);
        this.stored = new StoredFilterHeaders(state, pool, dispute);
        this.filterHeaders = new FilterHeaderPhase(state, pool, dispute);
        this.scan = new ScanPhase(state, pool, fetcher);
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

    /**
     * Runs every phase but the scan: block headers (reorgs included), checkpoints and filter headers, verified
     * against every live source, to the best tip they can prove. A scan of the target's own then takes filters from
     * {@link #verifiedFilters} and blocks from {@link #matchedBlock}, up to the filter-header tip.
     */
    public void syncChains() {
        syncChains(false);
    }

    private void syncChains(boolean everyStoredHeader) {
        headers.run(sink);
        checkpoints.run(sink);
        if (everyStoredHeader) {
            stored.checkAll(sink);
        }
        filterHeaders.startAtBirthday(sink);
        stored.checkTip(sink);
        filterHeaders.run(sink);
    }

    /**
     * The filters of heights {@code start..stop} (at most {@code Bip157.MAX_CFILTERS}, at or below the filter-header
     * tip), each checked against its verified filter header; a source that serves a false one is dropped.
     *
     * @throws SyncException when no live source serves them verified
     */
    public List<BasicFilter> verifiedFilters(int start, int stop) {
        return pool.verifiedFilters(start, stop);
    }

    /**
     * The block at {@code height} of the verified chain, whose verified {@code filter} matched, downloaded as the
     * fetch policy says (source spread, jitter; no decoys), checked against its header and merkle root, and the
     * filter checked against the block again.
     *
     * @throws SyncException when no source serves it or every source agreed on a false filter header chain
     */
    public Block matchedBlock(int height, BasicFilter filter) {
        Block block = fetcher.fetch(height);
        state.evidence(block).refute(filter).ifPresent(why -> {
            throw new SyncException(
                    "the committed filter of block " + block.getHash() + " at height " + height + " " + why
                            + ": every source agreed on a false filter header chain",
                    pool.faults());
        });
        return block;
    }

    /** The faults found so far: which source lied or failed, and why. */
    public List<SourceFault> faults() {
        return pool.faults();
    }

    /** The names of the sources still live. */
    public List<String> liveSources() {
        return pool.live().stream().map(ChainSource::name).toList();
    }

    private SyncReport run(boolean everyStoredHeader) {
        syncChains(everyStoredHeader);
        scan.run(sink);
        sink.stepDone("done");
        List<String> rollbacks = new ArrayList<>(checkpoints.rollbacks());
        rollbacks.addAll(stored.rollbacks());
        return new SyncReport(
                wallet.scannedHeight(),
                scan.filtersScanned(),
                scan.matchedBlocks(),
                headers.reorgDepth(),
                pool.faults(),
                pool.live().stream().map(ChainSource::name).toList(),
                rollbacks,
                policy,
                fetcher.decoyBlocks());
    }

    private void progress(String phase) {
        if (listener != null) {
            listener.onProgress(new SyncProgress(
                    phase,
                    wallet.headers().tipHeight(),
                    wallet.filterHeaders().tipHeight(),
                    wallet.scannedHeight(),
                    wallet.headers().tipHeight(),
                    scan.matchedBlocks(),
                    scan.firstScan()));
        }
    }
}
