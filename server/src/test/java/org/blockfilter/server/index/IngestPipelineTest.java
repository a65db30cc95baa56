package org.blockfilter.server.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.ScriptOpCodes;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.IndexStore.Family;
import org.blockfilter.server.store.PendingBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipelined ingest: prefetch bounds, the overlay, reorgs and shutdown in the middle of it. */
class IngestPipelineTest {
    private static final Duration POLL = Duration.ofMillis(50);
    private static final EnumSet<Family> CHAIN_STATE = EnumSet.of(Family.META, Family.HEIGHT, Family.UTXO, Family.UNDO);

    @TempDir
    Path dir;

    private static FilterIndexer.SyncResult sync(IndexStore store, BlockSource source) {
        try (FilterIndexer indexer = new FilterIndexer(store, source, POLL)) {
            return indexer.syncOnce();
        }
    }

    /** A store indexed serially (one block in flight) from {@code source} cut at {@code height}. */
    private IndexStore reference(String name, MinedChainSource chain, int height) {
        IndexStore store = IndexStore.open(dir.resolve(name));
        try (FilterIndexer indexer =
                new FilterIndexer(store, new Truncated(chain, height), POLL, new IngestSettings(1, 1, 1), false)) {
            indexer.syncOnce();
        }
        return store;
    }

    @Test
    void blockSpendingAnOutputOfAnUncommittedBlockResolvesItFromTheOverlay() {
        // Each block spends the previous block's coinbase: with nothing committed yet, block 2's
        // prevout exists only in block 1, still in the pipeline.
        MinedChainSource chain = new MinedChainSource().mine(6);
        try (IndexStore store = IndexStore.open(dir.resolve("p"));
                IndexStore expected = reference("r", chain, 5)) {
            List<IngestPipeline.PreparedBlock> held = new ArrayList<>();
            try (IngestPipeline pipeline = new IngestPipeline(
                    store,
                    new Locked(chain),
                    new IngestSettings(2, 8, 1 << 20),
                    new IngestMetrics(),
                    0,
                    null,
                    FilterHeaders.GENESIS_PREV,
                    false)) {
                for (int h = 0; h <= 5; h++) {
                    IngestPipeline.Step step = assertTimeoutPreemptively(Duration.ofSeconds(30), pipeline::next);
                    held.add(assertInstanceOf(IngestPipeline.Ready.class, step, "step at " + h)
                            .block());
                }
                assertTrue(store.tip().isEmpty(), "nothing committed while the blocks were prepared");
                for (IngestPipeline.PreparedBlock b : held) {
                    try (PendingBlock batch = b.batch()) {
                        store.connect(batch, false);
                    }
                    pipeline.committed(b);
                }
            }
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
        }
    }

    @Test
    void reorgWhileBlocksArePrefetchedEndsEqualToAFreshIndexOfTheNewChain() {
        MinedChainSource chain = new MinedChainSource().mine(30);
        AtomicBoolean reorged = new AtomicBoolean();
        Locked source = new Locked(chain) {
            @Override
            public synchronized Optional<Sha256Hash> hashAt(int height) {
                // The fetchers are ahead of the writer here: heights 16-24 come from the old
                // branch, some maybe committed, some only prefetched.
                if (height == 25 && reorged.compareAndSet(false, true)) {
                    chain.reorg(15, 18);
                }
                return super.hashAt(height);
            }
        };
        try (IndexStore store = IndexStore.open(dir.resolve("p"))) {
            sync(store, source);
            assertTrue(reorged.get());
            assertEquals(chain.height(), store.tip().orElseThrow().height());
            try (IndexStore fresh = reference("r", chain, chain.height())) {
                assertEquals(
                        fresh.inspection().contentDigest(CHAIN_STATE),
                        store.inspection().contentDigest(CHAIN_STATE));
            }
            assertFiltersMatch(store, chain);
        }
    }

    @Test
    void blockNotBuildingOnItsPredecessorMidPipelineIsRetriedAndTheIndexStaysCorrect() {
        MinedChainSource chain = new MinedChainSource().mine(12);
        MinedChainSource other = new MinedChainSource().mine(12);
        AtomicInteger lies = new AtomicInteger(1);
        BlockSource source = new Locked(chain) {
            @Override
            public synchronized Optional<Sha256Hash> hashAt(int height) {
                if (height == 7 && lies.getAndDecrement() > 0) {
                    return other.hashAt(7);
                }
                return super.hashAt(height);
            }

            @Override
            public synchronized Optional<byte[]> rawBlock(Sha256Hash hash) {
                return super.rawBlock(hash).or(() -> other.rawBlock(hash));
            }
        };
        try (IndexStore store = IndexStore.open(dir.resolve("p"));
                IndexStore expected = reference("r", chain, 12)) {
            assertEquals(new FilterIndexer.SyncResult(13, 0), sync(store, source));
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
        }
    }

    @Test
    void nodePersistentlyListingABlockThatDoesNotBuildOnOurTipEndsThePassInsteadOfSpinning() {
        MinedChainSource chain = new MinedChainSource().mine(8);
        MinedChainSource other = new MinedChainSource().mine(8);
        BlockSource source = new Locked(chain) {
            @Override
            public synchronized Optional<Sha256Hash> hashAt(int height) {
                return height == 5 ? other.hashAt(5) : super.hashAt(height);
            }

            @Override
            public synchronized Optional<byte[]> rawBlock(Sha256Hash hash) {
                return super.rawBlock(hash).or(() -> other.rawBlock(hash));
            }
        };
        try (IndexStore store = IndexStore.open(dir.resolve("p"))) {
            FilterIndexer.SyncResult result =
                    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> sync(store, source));
            assertEquals(new FilterIndexer.SyncResult(5, 0), result);
            assertEquals(4, store.tip().orElseThrow().height());
        }
    }

    @Test
    void prefetchHoldsNoMoreRawBytesThanTheBoundWhenTheParseStageIsBehind() {
        int note = 200_000;
        BigBlocks chain = new BigBlocks(40, note);
        int blockSize = chain.raw.stream().mapToInt(b -> b.length).max().orElseThrow();
        long bound = 4L * blockSize;
        AtomicInteger servedWhileHeld = new AtomicInteger();
        AtomicBoolean holding = new AtomicBoolean();
        BlockSource source = new BigBlocks.Source(chain) {
            @Override
            public Optional<byte[]> rawBlock(Sha256Hash hash) {
                int height = chain.heightOf(hash);
                if (height == 1) {
                    // Hold block 1 until every other fetcher has stopped: what they fetched
                    // meanwhile is what the prefetch buffer holds.
                    holding.set(true);
                    awaitOtherFetchersParked();
                    holding.set(false);
                } else if (holding.get()) {
                    servedWhileHeld.incrementAndGet();
                }
                return super.rawBlock(hash);
            }
        };
        try (IndexStore store = IndexStore.open(dir.resolve("p"));
                FilterIndexer indexer =
                        new FilterIndexer(store, source, POLL, new IngestSettings(3, 64, bound), false)) {
            assertEquals(41, indexer.syncOnce().connected());
            long peak = indexer.status().ingest().peakBytesAhead();
            // The block the parse stage waits for is always let in, so one block over the bound.
            assertTrue(peak <= bound + blockSize, "peak " + peak + " bytes ahead, bound " + bound);
            assertTrue(peak >= blockSize, "peak " + peak);
            // 4 in the buffer, 1 over it for the awaited block, one more in each other worker's hands.
            assertTrue(servedWhileHeld.get() <= 4 + 1 + 2, "served while block 1 was held: " + servedWhileHeld);
        }
    }

    private static void awaitOtherFetchersParked() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            boolean allParked = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("ingest-fetch-") && t != Thread.currentThread())
                    .allMatch(t -> t.getState() == Thread.State.WAITING);
            if (allParked) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the other fetchers never stopped");
    }

    @Test
    void closeDuringAPassLeavesTheStoreAtItsLastCommittedBlockAndStopsEveryStage() throws Exception {
        MinedChainSource chain = new MinedChainSource().mine(120);
        CountDownLatch stuck = new CountDownLatch(1);
        BlockSource source = new Locked(chain) {
            @Override
            public Optional<Sha256Hash> hashAt(int height) {
                if (height == 80) {
                    stuck.countDown();
                    try {
                        new CountDownLatch(1).await(); // a node that never answers, until interrupted
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                }
                synchronized (this) {
                    return super.hashAt(height);
                }
            }
        };
        try (IndexStore store = IndexStore.open(dir.resolve("p"))) {
            FilterIndexer indexer = new FilterIndexer(store, source, POLL);
            indexer.start();
            assertTrue(stuck.await(30, TimeUnit.SECONDS), "the pass reached height 80");
            assertTimeoutPreemptively(Duration.ofSeconds(30), indexer::close);
            assertFalse(
                    Thread.getAllStackTraces().keySet().stream()
                            .anyMatch(t -> t.isAlive() && t.getName().startsWith("ingest-")),
                    "a pipeline thread outlived close()");
            ChainTip tip = store.tip().orElseThrow();
            assertTrue(tip.height() < 80, "tip " + tip);
            assertEquals(chain.blockAt(tip.height()).getHash(), tip.hash());
            try (IndexStore expected = reference("r", chain, tip.height())) {
                assertEquals(
                        expected.inspection().contentDigest(),
                        store.inspection().contentDigest());
            }
        }
    }

    @Test
    void prevoutsFromTheNodeGiveAByteIdenticalIndexAndTheUtxoMapIsStillMaintained() {
        MinedChainSource chain = new MinedChainSource().mine(20);
        PrevoutSource fast = new PrevoutSource(new Locked(chain), chain, true);
        try (IndexStore store = IndexStore.open(dir.resolve("p"));
                IndexStore expected = reference("r", chain, 20);
                FilterIndexer indexer = new FilterIndexer(store, fast, POLL)) {
            indexer.syncOnce();
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
            // 20 blocks x 2 inputs; those spending an output of the same block never ask.
            assertTrue(indexer.status().ingest().prevoutsFromNode() > 0);
            assertTrue(fast.asked.get() > 0);
        }
    }

    @Test
    void aNodeWithoutPrevoutsIsIndexedFromTheUtxoMapWithoutAskingForThem() {
        MinedChainSource chain = new MinedChainSource().mine(20);
        PrevoutSource refusing = new PrevoutSource(new Locked(chain), chain, false);
        try (IndexStore store = IndexStore.open(dir.resolve("p"));
                IndexStore expected = reference("r", chain, 20);
                FilterIndexer indexer = new FilterIndexer(store, refusing, POLL)) {
            indexer.syncOnce();
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
            assertEquals(0, indexer.status().ingest().prevoutsFromNode());
            assertEquals(0, refusing.asked.get());
        }
    }

    private static void assertFiltersMatch(IndexStore store, MinedChainSource chain) {
        for (int h = 0; h <= chain.height(); h++) {
            Block block = chain.blockAt(h);
            BasicFilter expected = BasicFilter.build(block, chain::scriptOf);
            assertArrayEquals(
                    expected.bytes(), store.block(block.getHash()).orElseThrow().filter(), "filter at " + h);
        }
    }

    /** Serialises every call to a chain that is not thread-safe; subclasses add hooks. */
    private static class Locked implements BlockSource {
        final MinedChainSource chain;

        Locked(MinedChainSource chain) {
            this.chain = chain;
        }

        @Override
        public synchronized Sha256Hash bestBlockHash() {
            return chain.bestBlockHash();
        }

        @Override
        public synchronized int bestHeight() {
            return chain.bestHeight();
        }

        @Override
        public synchronized Optional<Sha256Hash> hashAt(int height) {
            return chain.hashAt(height);
        }

        @Override
        public synchronized Optional<byte[]> rawBlock(Sha256Hash hash) {
            return chain.rawBlock(hash);
        }
    }

    /** The chain as it was at {@code limit}. */
    private static final class Truncated extends Locked {
        private final int limit;

        Truncated(MinedChainSource chain, int limit) {
            super(chain);
            this.limit = limit;
        }

        @Override
        public synchronized Sha256Hash bestBlockHash() {
            return chain.blockAt(limit).getHash();
        }

        @Override
        public synchronized int bestHeight() {
            return limit;
        }

        @Override
        public synchronized Optional<Sha256Hash> hashAt(int height) {
            return height <= limit ? chain.hashAt(height) : Optional.empty();
        }
    }

    /** A node that reports prevout scripts (as Core's getblock verbosity 3), or refuses to. */
    private static final class PrevoutSource extends Locked {
        private final MinedChainSource scripts;
        private final boolean offers;
        final AtomicInteger asked = new AtomicInteger();

        PrevoutSource(Locked delegate, MinedChainSource scripts, boolean offers) {
            super(delegate.chain);
            this.scripts = scripts;
            this.offers = offers;
        }

        @Override
        public boolean offersPrevouts() {
            return offers;
        }

        @Override
        public synchronized Optional<BlockWithPrevouts> blockWithPrevouts(Sha256Hash hash) {
            if (!offers) {
                throw new UnsupportedOperationException("no prevouts here");
            }
            asked.incrementAndGet();
            return rawBlock(hash).map(raw -> {
                Block block = NodeBlocks.parse(raw, hash, -1);
                List<byte[]> prevouts = new ArrayList<>();
                for (Transaction tx : block.getTransactions()) {
                    if (!tx.isCoinBase()) {
                        for (TransactionInput in : tx.getInputs()) {
                            prevouts.add(scripts.scriptOf(in.getOutpoint()));
                        }
                    }
                }
                return new BlockWithPrevouts(raw, prevouts);
            });
        }
    }

    /** A read-only chain of blocks each carrying a large OP_RETURN, built up front. */
    private static final class BigBlocks {
        final List<byte[]> raw = new ArrayList<>();
        final List<Sha256Hash> hashes = new ArrayList<>();

        BigBlocks(int blocks, int noteBytes) {
            RegtestChainBuilder chain = new RegtestChainBuilder(77);
            add(chain.tip());
            for (int i = 0; i < blocks; i++) {
                Transaction coinbase = chain.tip().getTransactions().get(0);
                Transaction spend =
                        chain.spend(coinbase.getOutput(0), chain.minerScript(), Coin.COIN.multiply(49), null);
                // Added after signing; indexers do not check signatures.
                byte[] opReturn = new byte[noteBytes]; // OP_RETURN then OP_0s
                opReturn[0] = (byte) ScriptOpCodes.OP_RETURN;
                spend.addOutput(new TransactionOutput(spend, Coin.ZERO, opReturn));
                add(chain.mineBlock(List.of(spend)));
            }
        }

        private void add(Block b) {
            raw.add(b.serialize());
            hashes.add(b.getHash());
        }

        int heightOf(Sha256Hash hash) {
            return hashes.indexOf(hash);
        }

        static class Source implements BlockSource {
            private final BigBlocks chain;

            Source(BigBlocks chain) {
                this.chain = chain;
            }

            @Override
            public Sha256Hash bestBlockHash() {
                return chain.hashes.get(chain.hashes.size() - 1);
            }

            @Override
            public int bestHeight() {
                return chain.hashes.size() - 1;
            }

            @Override
            public Optional<Sha256Hash> hashAt(int height) {
                return height < chain.hashes.size() ? Optional.of(chain.hashes.get(height)) : Optional.empty();
            }

            @Override
            public Optional<byte[]> rawBlock(Sha256Hash hash) {
                int h = chain.heightOf(hash);
                return h < 0 ? Optional.empty() : Optional.of(chain.raw.get(h).clone());
            }
        }
    }
}
