package org.blockfilter.server.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.PrevoutScripts;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.PendingBlock;
import org.blockfilter.server.store.StoredBlock;
import org.blockfilter.server.store.UnspentOutput;

/**
 * One catch-up run of the indexer from a committed tip, in three stages so that RPC round trips,
 * parsing and filter building overlap the RocksDB writes:
 *
 * <ol>
 *   <li><b>fetch</b>: {@link IngestSettings#fetchThreads()} workers claim heights in order and
 *       ask the node for the hash at that height and the block (following {@code hashAt}, so a
 *       reorg shows up as a block that does not build on the one before). At most
 *       {@code maxBlocksAhead} blocks and {@code maxBytesAhead} raw bytes wait for the next stage;
 *       the block the next stage waits for is always let in, so the bound cannot deadlock.
 *   <li><b>prepare</b> (one thread, in height order): parse, check that the block builds on the
 *       previous one, resolve the scripts it spends, build the BIP 158 filter and BIP 157 header.
 *       Outputs created by blocks prepared but not yet committed are resolved from an in-memory
 *       overlay (and a spend removes them from it), store outputs those blocks spent are
 *       remembered as spent, so every block sees exactly the UTXO set the serial order would.
 *   <li><b>write</b>: the caller takes {@link Step}s with {@link #next()} in height order,
 *       commits each block's batch (encoded by the prepare stage, {@link
 *       IndexStore#prepareConnect}), closes it, and then calls {@link #committed}.
 * </ol>
 *
 * A failure (RPC, parse, unknown prevout) or a block that does not build on its predecessor
 * ends the run at that height: the blocks before it are still handed out, then a {@link Failed}
 * or {@link Mismatch} step. {@link #close()} stops and joins every thread; nothing is written by
 * the pipeline itself, so the store stays at the last block the caller committed. Thread-safe
 * as used: one caller thread calls {@link #next()}, {@link #committed} and {@link #close()}.
 */
final class IngestPipeline implements AutoCloseable {
    /** Core's MAX_SCRIPT_SIZE: longer output scripts, like OP_RETURN ones, can never be spent. */
    private static final int MAX_SCRIPT_SIZE = 10_000;

    private static final int OP_RETURN = 0x6a;
    private static final int PREPARED_AHEAD = 4;
    private static final AtomicInteger RUNS = new AtomicInteger();

    /** What the writer gets next. */
    sealed interface Step permits Ready, End, Mismatch, Failed {}

    /** A block ready to commit. */
    record Ready(PreparedBlock block) implements Step {}

    /** The node has no block at {@code height} (yet). */
    record End(int height) implements Step {}

    /** The node's block at {@code height} does not build on the block before it: a reorg. */
    record Mismatch(int height, Sha256Hash block) implements Step {}

    /** Fetching or preparing the block at {@code height} failed. */
    record Failed(int height, RuntimeException error) implements Step {}

    /** One block's batch, encoded, and what to clean from the overlay once it is committed. */
    record PreparedBlock(
            PendingBlock batch,
            Map<OutKey, byte[]> createdScripts,
            List<OutKey> spentFromStore,
            int txCount,
            int inputCount,
            int spentCount,
            int createdCount) {
        StoredBlock record() {
            return batch.block();
        }
    }

    record OutKey(Sha256Hash txId, long index) {
        @Override
        public String toString() {
            return txId + ":" + index;
        }
    }

    private sealed interface Slot permits Fetched, NoBlock, FetchFailed {
        default long bytes() {
            return 0;
        }
    }

    private record Fetched(Sha256Hash hash, byte[] raw, List<byte[]> prevouts) implements Slot {
        @Override
        public long bytes() {
            return raw.length;
        }
    }

    private record NoBlock() implements Slot {}

    private record FetchFailed(RuntimeException error) implements Slot {}

    private final IndexStore store;
    private final BlockSource source;
    private final IngestSettings settings;
    private final IngestMetrics metrics;
    private final boolean prevoutsFromNode;
    private final ExecutorService fetchers;
    private final ExecutorService preparer;
    private final BlockingQueue<Step> prepared = new ArrayBlockingQueue<>(PREPARED_AHEAD);

    // Fetch window, guarded by lock.
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<Integer, Slot> slots = new HashMap<>();
    private int nextToFetch;
    private int nextToPrepare;
    private int endHeight = Integer.MAX_VALUE;
    private long bytesAhead;
    private boolean closed;

    // Outputs of prepared, uncommitted blocks: created and not yet spent (overlay), and store
    // outputs already spent by them. Confined to the prepare thread, which also cleans out the
    // entries of the blocks the writer reports committed (through the queue, so the writer
    // thread only hands them over). An entry of a committed block that is still there says the
    // same as the store (its script; spent), so cleaning late changes no answer.
    private final Map<OutKey, byte[]> overlay = new HashMap<>();
    private final Set<OutKey> spentAhead = new HashSet<>();
    private final Queue<Committed> committedBlocks = new ConcurrentLinkedQueue<>();

    /** What the prepare thread forgets of a committed block (not its record or batch). */
    private record Committed(Map<OutKey, byte[]> createdScripts, List<OutKey> spentFromStore) {}

    /**
     * Starts the stages at {@code startHeight}, on top of {@code tipHash} (null for an empty
     * store) whose filter header is {@code tipFilterHeader}.
     */
    IngestPipeline(
            IndexStore store,
            BlockSource source,
            IngestSettings settings,
            IngestMetrics metrics,
            int startHeight,
            Sha256Hash tipHash,
            Sha256Hash tipFilterHeader,
            boolean prevoutsFromNode) {
        this.store = store;
        this.source = source;
        this.settings = settings;
        this.metrics = metrics;
        this.prevoutsFromNode = prevoutsFromNode;
        this.nextToFetch = startHeight;
        this.nextToPrepare = startHeight;
        int run = RUNS.incrementAndGet();
        this.fetchers = Executors.newFixedThreadPool(settings.fetchThreads(), named("ingest-fetch-" + run + "-"));
        this.preparer = Executors.newSingleThreadExecutor(named("ingest-prepare-" + run + "-"));
        for (int i = 0; i < settings.fetchThreads(); i++) {
            fetchers.execute(this::fetchLoop);
        }
        preparer.execute(() -> prepareLoop(startHeight, tipHash, tipFilterHeader));
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The next step in height order; blocks until there is one. */
    Step next() throws InterruptedException {
        return prepared.take();
    }

    /**
     * The caller has committed {@code block}: its outputs are in the store now. Its overlay
     * entries are removed by the prepare thread before it prepares its next block.
     */
    void committed(PreparedBlock block) {
        committedBlocks.add(new Committed(block.createdScripts(), block.spentFromStore()));
    }

    /** On the prepare thread: forgets the overlay entries of the blocks committed since the last call. */
    private void forgetCommitted() {
        for (Committed b; (b = committedBlocks.poll()) != null; ) {
            // remove(key, script): a later block that created the same outpoint again (a
            // duplicate transaction, BIP 30) keeps its own entry.
            b.createdScripts().forEach(overlay::remove);
            b.spentFromStore().forEach(spentAhead::remove);
        }
    }

    // ---- fetch stage

    private void fetchLoop() {
        try {
            while (true) {
                int height;
                lock.lock();
                try {
                    while (!closed
                            && !(nextToFetch < endHeight
                                    && nextToFetch < nextToPrepare + settings.maxBlocksAhead()
                                    && bytesAhead < settings.maxBytesAhead())) {
                        changed.await();
                    }
                    if (closed) {
                        return;
                    }
                    height = nextToFetch++;
                } finally {
                    lock.unlock();
                }
                Slot slot = fetch(height);
                lock.lock();
                try {
                    long size = slot.bytes();
                    while (!closed && height != nextToPrepare && bytesAhead + size > settings.maxBytesAhead()) {
                        changed.await();
                    }
                    if (closed) {
                        return;
                    }
                    slots.put(height, slot);
                    bytesAhead += size;
                    metrics.bytesAhead(bytesAhead);
                    if (!(slot instanceof Fetched)) {
                        endHeight = Math.min(endHeight, height);
                    }
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Slot fetch(int height) {
        long start = System.nanoTime();
        try {
            Optional<Sha256Hash> hash = source.hashAt(height);
            if (hash.isEmpty()) {
                return new NoBlock();
            }
            Sha256Hash h = hash.get();
            if (prevoutsFromNode) {
                BlockWithPrevouts b = source.blockWithPrevouts(h).orElseThrow(() -> notReturned(h, height));
                // An empty list: the node did not report this block's prevouts; use the map.
                return new Fetched(h, b.raw(), b.prevoutScripts().isEmpty() ? null : b.prevoutScripts());
            }
            return new Fetched(h, source.rawBlock(h).orElseThrow(() -> notReturned(h, height)), null);
        } catch (RuntimeException e) {
            return new FetchFailed(e);
        } finally {
            metrics.fetchNanos.add(System.nanoTime() - start);
        }
    }

    private static NodeAnswerException notReturned(Sha256Hash hash, int height) {
        return new NodeAnswerException("node lists block " + hash + " at height " + height + " but does not return it");
    }

    // ---- prepare stage

    private void prepareLoop(int startHeight, Sha256Hash tipHash, Sha256Hash tipFilterHeader) {
        Sha256Hash prevHash = tipHash;
        Sha256Hash prevHeader = tipFilterHeader;
        try {
            for (int height = startHeight; ; height++) {
                Slot slot = take(height);
                if (slot == null) {
                    return;
                }
                if (slot instanceof NoBlock) {
                    prepared.put(new End(height));
                    return;
                }
                if (slot instanceof FetchFailed f) {
                    prepared.put(new Failed(height, f.error()));
                    return;
                }
                Fetched fetched = (Fetched) slot;
                Step step;
                try {
                    long t0 = System.nanoTime();
                    Block block = NodeBlocks.parse(fetched.raw(), fetched.hash(), height);
                    metrics.parseNanos.add(System.nanoTime() - t0);
                    if (prevHash != null && !block.getPrevBlockHash().equals(prevHash)) {
                        prepared.put(new Mismatch(height, block.getHash()));
                        return;
                    }
                    PreparedBlock p = prepare(block, fetched.raw(), fetched.prevouts(), height, prevHeader);
                    prevHash = block.getHash();
                    prevHeader = p.record().filterHeader();
                    step = new Ready(p);
                } catch (RuntimeException e) {
                    prepared.put(new Failed(height, e));
                    return;
                }
                prepared.put(step);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the fetched slot of {@code height}; null once closed. */
    private Slot take(int height) throws InterruptedException {
        lock.lock();
        try {
            while (!closed && !slots.containsKey(height)) {
                changed.await();
            }
            if (closed) {
                return null;
            }
            Slot slot = slots.remove(height);
            bytesAhead -= slot.bytes();
            nextToPrepare = height + 1;
            changed.signalAll();
            return slot;
        } finally {
            lock.unlock();
        }
    }

    private PreparedBlock prepare(
            Block block, byte[] raw, List<byte[]> nodePrevouts, int height, Sha256Hash prevHeader) {
        long t0 = System.nanoTime();
        forgetCommitted();
        Map<OutKey, byte[]> created = new LinkedHashMap<>();
        Set<OutKey> spentKeys = new HashSet<>();
        // Per non-coinbase input, in input order: its outpoint and the script it spends (null
        // until the store lookup below fills it in).
        List<TransactionOutPoint> inputOutpoints = new ArrayList<>();
        List<byte[]> inputScripts = new ArrayList<>();
        // Per output spent from before this block, in input order (the undo order).
        List<OutKey> spentOrder = new ArrayList<>();
        List<byte[]> spentScripts = new ArrayList<>();
        List<OutKey> spentFromStore = new ArrayList<>();
        // Outputs to read from the store: their input and spent positions, read in one MultiGet.
        List<TransactionOutPoint> fromStore = new ArrayList<>();
        List<int[]> fromStoreAt = new ArrayList<>();
        int inputs = 0;
        for (Transaction tx : block.getTransactions()) {
            if (!tx.isCoinBase()) {
                for (TransactionInput input : tx.getInputs()) {
                    TransactionOutPoint op = input.getOutpoint();
                    OutKey key = new OutKey(op.hash(), op.index());
                    byte[] script = created.remove(key);
                    if (script == null) {
                        if (!spentKeys.add(key)) {
                            throw new IndexingException("block " + block.getHash() + " spends " + key + " twice");
                        }
                        byte[] pending = overlay.remove(key);
                        if (nodePrevouts != null) {
                            script = nodePrevout(nodePrevouts, inputs, block, height);
                        } else if (pending != null) {
                            script = pending;
                        } else if (spentAhead.contains(key)) {
                            throw notUnspent(key, block, height);
                        } else {
                            fromStore.add(op);
                            fromStoreAt.add(new int[] {inputs, spentOrder.size()});
                        }
                        if (pending == null) {
                            spentAhead.add(key);
                            spentFromStore.add(key);
                        }
                        spentOrder.add(key);
                        spentScripts.add(script);
                    }
                    inputOutpoints.add(op);
                    inputScripts.add(script);
                    inputs++;
                }
            }
            Sha256Hash txId = tx.getTxId();
            List<TransactionOutput> outputs = tx.getOutputs();
            for (int i = 0; i < outputs.size(); i++) {
                byte[] script = outputs.get(i).getScriptBytes();
                if (spendable(script)) {
                    created.put(new OutKey(txId, i), script);
                }
            }
        }
        if (nodePrevouts != null && nodePrevouts.size() != inputs) {
            throw new NodeAnswerException("node reported " + nodePrevouts.size() + " prevout scripts for block "
                    + block.getHash() + " at height " + height + ", which has " + inputs + " inputs");
        }
        List<byte[]> stored = store.unspentScripts(fromStore);
        for (int i = 0; i < stored.size(); i++) {
            byte[] script = stored.get(i);
            int[] at = fromStoreAt.get(i);
            if (script == null) {
                throw notUnspent(spentOrder.get(at[1]), block, height);
            }
            inputScripts.set(at[0], script);
            spentScripts.set(at[1], script);
        }
        long t1 = System.nanoTime();
        BasicFilter filter = BasicFilter.build(block, inInputOrder(inputOutpoints, inputScripts));
        Sha256Hash filterHash = filter.filterHash();
        Sha256Hash header = FilterHeaders.next(filterHash, prevHeader);
        StoredBlock record = new StoredBlock(
                block.getHash(),
                height,
                Arrays.copyOf(raw, StoredBlock.HEADER_SIZE),
                filterHash,
                header,
                prevHeader,
                filter.bytes());
        List<UnspentOutput> spent = new ArrayList<>(spentOrder.size());
        for (int i = 0; i < spentOrder.size(); i++) {
            OutKey k = spentOrder.get(i);
            spent.add(new UnspentOutput(k.txId(), k.index(), spentScripts.get(i)));
        }
        List<UnspentOutput> createdList = new ArrayList<>(created.size());
        created.forEach((k, s) -> createdList.add(new UnspentOutput(k.txId(), k.index(), s)));
        PendingBlock batch = store.prepareConnect(record, spent, createdList);
        // Published last: a later block may spend these before this one is committed.
        overlay.putAll(created);
        long t2 = System.nanoTime();
        metrics.lookupNanos.add(t1 - t0);
        metrics.buildNanos.add(t2 - t1);
        return new PreparedBlock(
                batch,
                created,
                spentFromStore,
                block.getTransactions().size(),
                inputs,
                spent.size(),
                createdList.size());
    }

    /**
     * The scripts the inputs spend, for {@link BasicFilter#build}: it asks in input order, so
     * each question is answered from the next position without a map (checked against the
     * outpoint; any other order falls back to a map built on first use).
     */
    private static PrevoutScripts inInputOrder(List<TransactionOutPoint> outpoints, List<byte[]> scripts) {
        return new PrevoutScripts() {
            private int next;
            private Map<TransactionOutPoint, byte[]> byOutpoint;

            @Override
            public byte[] scriptFor(TransactionOutPoint outpoint) {
                if (next < outpoints.size() && outpoint.equals(outpoints.get(next))) {
                    return scripts.get(next++);
                }
                if (byOutpoint == null) {
                    byOutpoint = new HashMap<>();
                    for (int i = 0; i < outpoints.size(); i++) {
                        byOutpoint.put(outpoints.get(i), scripts.get(i));
                    }
                }
                return byOutpoint.get(outpoint);
            }
        };
    }

    private static IndexingException notUnspent(OutKey key, Block block, int height) {
        return new IndexingException("block " + block.getHash() + " at height " + height + " spends " + key
                + ", which is not in the unspent-output map");
    }

    private byte[] nodePrevout(List<byte[]> nodePrevouts, int input, Block block, int height) {
        if (input >= nodePrevouts.size()) {
            throw new NodeAnswerException("node reported " + nodePrevouts.size() + " prevout scripts for block "
                    + block.getHash() + " at height " + height + ", which has more inputs");
        }
        metrics.prevoutsFromNode.increment();
        return nodePrevouts.get(input);
    }

    private static boolean spendable(byte[] script) {
        return script.length <= MAX_SCRIPT_SIZE && !(script.length > 0 && (script[0] & 0xFF) == OP_RETURN);
    }

    // ---- shutdown

    /** Stops every stage and waits for their threads; uncommitted blocks are dropped. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        fetchers.shutdownNow();
        preparer.shutdownNow();
        boolean interrupted = false;
        for (ExecutorService e : List.of(preparer, fetchers)) {
            while (true) {
                try {
                    if (e.awaitTermination(60, TimeUnit.SECONDS)) {
                        break;
                    }
                } catch (InterruptedException ie) {
                    interrupted = true; // finish joining: no stage may touch the store after close
                }
            }
        }
        // Blocks prepared and never committed hold native batches.
        for (Step step : prepared) {
            if (step instanceof Ready r) {
                r.block().batch().close();
            }
        }
        prepared.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
