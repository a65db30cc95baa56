package org.blockfilter.server.index;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.PendingBlock;
import org.blockfilter.server.store.StoreException;
import org.blockfilter.server.store.StoredBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Indexes the node's best chain from genesis into an {@link IndexStore} and follows its tip.
 * Per block, in order: parse it, look up the scripts of the outputs it spends in the store's
 * unspent-script map, build the BIP 158 basic filter and its BIP 157 header, and commit
 * everything (filter, header, block header, height, UTXO changes, undo data, tip) in one
 * atomic batch. When the node's best chain switches it disconnects blocks down to the fork
 * point with the undo data (their filters stay retrievable by hash) and indexes the new branch,
 * but only once the node has shown that branch ({@link ReorgProof}): headers that link back to
 * the indexed chain and carry more work than it.
 *
 * <p>No fault stops the follower: whatever a pass throws is classified ({@link Fault#of}), logged
 * with what was asked and what came back, counted in {@link NodeHealth}, and the pass is retried
 * with back-off; nothing of a failed block is written.
 *
 * <p>{@link #syncOnce()} does one catch-up pass on the caller's thread (what tests use);
 * {@link #start()} runs passes on a background thread, polling the node every
 * {@code pollInterval} once caught up and retrying with back-off while the node is
 * unreachable. Thread-safe: one pass runs at a time.
 */
public final class FilterIndexer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FilterIndexer.class);
    private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    private final IndexStore store;
    private final BlockSource source;
    private final Duration pollInterval;
    private final IngestSettings settings;
    private final boolean usePrevoutsFromNode;
    private final IngestMetrics metrics = new IngestMetrics();
    private volatile Boolean nodeOffersPrevouts;
    private final ReentrantLock passLock = new ReentrantLock();
    private final ReentrantLock wakeLock = new ReentrantLock();
    private final Condition wake = wakeLock.newCondition();
    private final AtomicLong blocksConnected = new AtomicLong();
    private final AtomicLong blocksDisconnected = new AtomicLong();
    private final AtomicLong reorgs = new AtomicLong();
    private final List<Consumer<ChainTip>> listeners = new CopyOnWriteArrayList<>();
    private volatile int nodeHeight = -1;
    private final NodeHealth health;
    private volatile Fault lastFault;
    private volatile boolean running;
    private Thread thread;
    // The filter header of the tip, so connecting a block needs no read of its parent's record.
    private Sha256Hash cachedTipHash;
    private Sha256Hash cachedTipHeader;

    /**
     * Calls {@code listener} on the indexer's thread after each pass that changed the tip, with
     * the new tip (for metrics, caches, tests). A listener must be quick and must not throw.
     */
    public void onTipChanged(Consumer<ChainTip> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** What one pass did. */
    public record SyncResult(int connected, int disconnected) {}

    /** A snapshot of the indexer's state, for status pages and metrics. */
    public record Status(
            int indexedHeight,
            int nodeHeight,
            long blocksConnected,
            long blocksDisconnected,
            long reorgs,
            boolean running,
            Optional<Fault> lastFault,
            IngestStats ingest) {}

    public FilterIndexer(IndexStore store, BlockSource source, Duration pollInterval) {
        this(store, source, pollInterval, IngestSettings.DEFAULT, true, new NodeHealth());
    }

    /** As the full constructor, with a node record of its own. */
    public FilterIndexer(
            IndexStore store,
            BlockSource source,
            Duration pollInterval,
            IngestSettings settings,
            boolean usePrevoutsFromNode) {
        this(store, source, pollInterval, settings, usePrevoutsFromNode, new NodeHealth());
    }

    /**
     * @param settings            how far to read ahead of the committed tip
     * @param usePrevoutsFromNode take prevout scripts from the node when it offers them (probed
     *                            once); false always reads them from the unspent-output map
     * @param health              where the indexer records what it learns of the node and its faults
     */
    public FilterIndexer(
            IndexStore store,
            BlockSource source,
            Duration pollInterval,
            IngestSettings settings,
            boolean usePrevoutsFromNode,
            NodeHealth health) {
        this.health = Objects.requireNonNull(health, "health");
        this.store = Objects.requireNonNull(store, "store");
        this.source = Objects.requireNonNull(source, "source");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.usePrevoutsFromNode = usePrevoutsFromNode;
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("pollInterval must be positive: " + pollInterval);
        }
    }

    /**
     * Brings the index to the node's best chain: follows a reorg if there was one, then connects
     * blocks until the tip equals the node's best block.
     *
     * @throws NodeAnswerException if the node answers something invalid, or claims a reorg it cannot show
     * @throws IndexingException   if the node's data cannot be indexed (the store keeps its last good block)
     * @throws RpcException        if the node cannot be reached
     */
    public SyncResult syncOnce() {
        passLock.lock();
        try {
            return pass();
        } finally {
            passLock.unlock();
        }
    }

    private SyncResult pass() {
        checkGenesis();
        int connected = 0;
        int disconnected = 0;
        Progress progress = null;
        long clockStart = 0;
        IngestStats statsAtStart = null;
        boolean fromNode = prevoutsFromNode();
        // The node's best hash is asked again only when we reach it (or run out of blocks).
        Sha256Hash best = source.bestBlockHash();
        while (!Thread.currentThread().isInterrupted()) {
            Optional<ChainTip> tip = store.tip();
            if (tip.isPresent() && tip.get().hash().equals(best)) {
                Sha256Hash now = source.bestBlockHash();
                if (now.equals(best)) {
                    nodeHeight = tip.get().height();
                    health.answered(nodeHeight);
                    break;
                }
                best = now;
                continue;
            }
            int next = tip.map(t -> t.height() + 1).orElse(0);
            Sha256Hash tipHash = tip.map(ChainTip::hash).orElse(null);
            Sha256Hash tipHeader = tip.isEmpty() ? FilterHeaders.GENESIS_PREV : tipFilterHeader(tip.get());
            int runConnected = 0;
            IngestPipeline.Step last = null;
            if (clockStart == 0) {
                // Rates count from the first fetch: the pipeline reads ahead before the first commit.
                clockStart = System.nanoTime();
                statsAtStart = metrics.snapshot();
            }
            try (IngestPipeline pipeline =
                    new IngestPipeline(store, source, settings, metrics, next, tipHash, tipHeader, fromNode)) {
                while (true) {
                    IngestPipeline.Step step;
                    try {
                        step = pipeline.next();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                    if (!(step instanceof IngestPipeline.Ready ready)) {
                        last = step;
                        break;
                    }
                    if (progress == null) {
                        nodeHeight = source.bestHeight();
                        health.answered(nodeHeight);
                        progress = new Progress(next, nodeHeight, statsAtStart, clockStart);
                    }
                    IngestPipeline.PreparedBlock block = ready.block();
                    commit(block, block.record().blockHash().equals(best));
                    pipeline.committed(block);
                    runConnected++;
                    progress.blockDone(block.record().height(), this);
                }
            }
            connected += runConnected;
            if (last instanceof IngestPipeline.Failed failed) {
                throw failed.error();
            } else if (last instanceof IngestPipeline.Mismatch m) {
                ChainTip ours = store.tip().orElseThrow();
                if (source.hashAt(ours.height()).map(ours.hash()::equals).orElse(false)) {
                    // The node lists our tip on its best chain but a block at the next height that
                    // does not build on it: it answers inconsistently for now (a reorg between our
                    // calls, or a broken node); the next pass asks again.
                    if (runConnected == 0) {
                        inconsistent(m, ours);
                        break;
                    }
                    continue;
                }
                // A reorg only if the node can show the branch (else ReorgProof throws, nothing is undone).
                disconnected += rollBackTo(ReorgProof.forkPoint(store, source, m.block(), store.undoDepth() + 1));
            } else if (last instanceof IngestPipeline.End && runConnected == 0) {
                // The node's chain is not longer than ours, yet its best block is not our tip.
                Sha256Hash now = source.bestBlockHash();
                if (!now.equals(best)) {
                    best = now; // the node moved on: look again
                    continue;
                }
                disconnected += rollBackTo(ReorgProof.forkPoint(store, source, best, store.undoDepth() + 1));
            }
        }
        if (progress != null) {
            progress.finish(this);
        }
        if (connected + disconnected > 0) {
            store.tip().ifPresent(t -> listeners.forEach(l -> l.accept(t)));
        }
        return new SyncResult(connected, disconnected);
    }

    /**
     * Whether this pass takes prevout scripts from the node ({@code getblock hash 3}) instead of
     * reading them from the unspent-output map, which is maintained either way.
     */
    private boolean prevoutsFromNode() {
        if (!usePrevoutsFromNode) {
            return false;
        }
        Boolean known = nodeOffersPrevouts;
        if (known == null) {
            known = source.offersPrevouts();
            nodeOffersPrevouts = known;
            LOG.info("event=prevout_source source={}", known ? "node" : "utxo_index");
        }
        return known;
    }

    private void checkGenesis() {
        Optional<Sha256Hash> ours = store.genesis();
        if (ours.isPresent()) {
            Optional<Sha256Hash> theirs = source.hashAt(0);
            if (theirs.isPresent() && !theirs.get().equals(ours.get())) {
                throw new IndexingException("the data directory indexes the chain with genesis " + ours.get()
                        + " but the node's genesis is " + theirs.get() + ": use another --data-dir");
            }
        }
    }

    private void inconsistent(IngestPipeline.Mismatch m, ChainTip ours) {
        Fault fault = new Fault(
                Fault.Kind.NODE_INVALID,
                "the node lists block " + m.block() + " at height " + m.height() + ", which does not build on its"
                        + " block " + ours.hash() + " at height " + ours.height());
        health.failed(fault);
        LOG.warn("event=node_error kind={} error=\"{}\"", fault.kind().label(), fault.message());
    }

    /** Disconnects blocks down to the proven fork point; returns how many. */
    private int rollBackTo(ChainTip fork) {
        int count = 0;
        Optional<ChainTip> tip = store.tip();
        Sha256Hash oldTip = tip.map(ChainTip::hash).orElse(null);
        while (tip.isPresent() && tip.get().height() > fork.height()) {
            StoredBlock gone;
            try {
                gone = store.disconnectTip(false);
            } catch (StoreException e) {
                throw new IndexingException("cannot follow the node's reorg: " + e.getMessage(), e);
            }
            LOG.info("event=disconnect height={} block={} reason=reorg", gone.height(), gone.blockHash());
            count++;
            tip = store.tip();
        }
        if (count > 0) {
            reorgs.incrementAndGet();
            blocksDisconnected.addAndGet(count);
            cachedTipHash = null;
            LOG.warn(
                    "event=reorg depth={} old_tip={} fork_height={} fork_block={}",
                    count,
                    oldTip,
                    fork.height(),
                    fork.hash());
        }
        return count;
    }

    private void commit(IngestPipeline.PreparedBlock block, boolean sync) {
        StoredBlock record = block.record();
        long start = System.nanoTime();
        try (PendingBlock batch = block.batch()) {
            store.connect(batch, sync);
        }
        metrics.writeNanos.add(System.nanoTime() - start);
        metrics.blocks.increment();
        metrics.txs.add(block.txCount());
        metrics.inputs.add(block.inputCount());
        LOG.debug(
                "event=block height={} block={} txs={} filter_bytes={} spent={} created={}",
                record.height(),
                record.blockHash(),
                block.txCount(),
                record.filter().length,
                block.spentCount(),
                block.createdCount());
        cachedTipHash = record.blockHash();
        cachedTipHeader = record.filterHeader();
        blocksConnected.incrementAndGet();
    }

    private Sha256Hash tipFilterHeader(ChainTip tip) {
        if (tip.hash().equals(cachedTipHash)) {
            return cachedTipHeader;
        }
        return store.block(tip.hash())
                .map(StoredBlock::filterHeader)
                .orElseThrow(() -> new IndexingException(
                        "store corrupt: no record of its tip " + tip.hash() + " at height " + tip.height()));
    }

    /** Starts following the node on a background thread (idempotent). */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        thread = new Thread(this::follow, "filter-indexer");
        thread.setDaemon(true);
        thread.start();
    }

    private void follow() {
        Duration backoff = pollInterval;
        while (running) {
            try {
                syncOnce();
                lastFault = null;
                backoff = pollInterval;
                pause(pollInterval);
            } catch (RuntimeException e) {
                if (!running) {
                    break; // closing: the store may already be closed under us
                }
                Fault fault = Fault.of(e);
                lastFault = fault;
                health.failed(fault);
                LOG.warn(
                        "event={} kind={} height={} retry_in_ms={} error=\"{}\"",
                        fault.kind().isNode() ? "node_error" : "index_error",
                        fault.kind().label(),
                        store.tip().map(ChainTip::height).orElse(-1),
                        backoff.toMillis(),
                        fault.message());
                if (fault.kind() == Fault.Kind.INDEX) {
                    LOG.debug("event=index_error_trace", e);
                }
                pause(backoff);
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    private void pause(Duration d) {
        wakeLock.lock();
        try {
            if (running) {
                wake.await(d.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            running = false;
            Thread.currentThread().interrupt();
        } finally {
            wakeLock.unlock();
        }
    }

    /** What the indexer knows of its node: shared with the node gateway and status. */
    public NodeHealth health() {
        return health;
    }

    /** The state of the index and of the follower. */
    public Status status() {
        return new Status(
                store.tip().map(ChainTip::height).orElse(-1),
                nodeHeight,
                blocksConnected.get(),
                blocksDisconnected.get(),
                reorgs.get(),
                running,
                Optional.ofNullable(lastFault),
                metrics.snapshot());
    }

    /** Stops the background thread, if started, and waits for the pass in progress to end. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            running = false;
            t = thread;
        }
        wakeLock.lock();
        try {
            wake.signalAll();
        } finally {
            wakeLock.unlock();
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Rate, ETA and the split between stages while catching up, logged every few seconds. */
    private static final class Progress {
        private final long startNanos;
        private final int startHeight;
        private final int target;
        private final IngestStats atStart;
        private long lastLog;
        private int height;

        Progress(int startHeight, int target, IngestStats atStart, long startNanos) {
            this.startHeight = startHeight;
            this.target = target;
            this.atStart = atStart;
            this.startNanos = startNanos;
            this.lastLog = startNanos;
            this.height = startHeight - 1;
        }

        void blockDone(int height, FilterIndexer indexer) {
            this.height = height;
            long now = System.nanoTime();
            if (now - lastLog >= PROGRESS_EVERY_NANOS) {
                lastLog = now;
                double seconds = (now - startNanos) / 1e9;
                IngestStats s = indexer.metrics.snapshot().since(atStart);
                double rate = s.blocks() / seconds;
                int remaining = Math.max(0, Math.max(target, indexer.nodeHeight) - height);
                LOG.info(
                        "event=progress height={} target={} blocks_per_s={} tx_per_s={} inputs_per_s={} eta_s={} {}",
                        height,
                        Math.max(target, height),
                        String.format("%.1f", rate),
                        String.format("%.1f", s.txs() / seconds),
                        String.format("%.1f", s.inputs() / seconds),
                        rate > 0 ? Math.round(remaining / rate) : -1,
                        split(s));
            }
        }

        /** Wall milliseconds per stage (stages overlap), as key=value pairs. */
        private static String split(IngestStats s) {
            return "fetch_ms=" + s.fetchNanos() / 1_000_000 + " parse_ms=" + s.parseNanos() / 1_000_000
                    + " lookup_ms=" + s.lookupNanos() / 1_000_000 + " build_ms=" + s.buildNanos() / 1_000_000
                    + " write_ms=" + s.writeNanos() / 1_000_000 + " prevouts_from_node=" + s.prevoutsFromNode()
                    + " peak_bytes_ahead=" + s.peakBytesAhead();
        }

        void finish(FilterIndexer indexer) {
            int blocks = height - startHeight + 1;
            if (blocks <= 0) {
                return;
            }
            double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
            IngestStats s = indexer.metrics.snapshot().since(atStart);
            if (blocks == 1) {
                LOG.info(
                        "event=tip height={} block={}",
                        height,
                        indexer.store.tip().map(ChainTip::hash).orElse(null));
            } else {
                LOG.info(
                        "event=caught_up height={} blocks={} seconds={} blocks_per_s={} tx_per_s={} inputs_per_s={} {}",
                        height,
                        blocks,
                        String.format("%.1f", seconds),
                        String.format("%.1f", s.blocks() / seconds),
                        String.format("%.1f", s.txs() / seconds),
                        String.format("%.1f", s.inputs() / seconds),
                        split(s));
            }
        }
    }
}
