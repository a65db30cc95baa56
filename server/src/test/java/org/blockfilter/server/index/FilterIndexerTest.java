package org.blockfilter.server.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.IndexStore.Family;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterIndexerTest {
    private static final Duration POLL = Duration.ofMillis(50);
    /** Everything but the block records, which keep stale blocks after a reorg. */
    private static final EnumSet<Family> CHAIN_STATE = EnumSet.of(Family.META, Family.HEIGHT, Family.UTXO, Family.UNDO);

    @TempDir
    Path dir;

    private static FilterIndexer.SyncResult sync(IndexStore store, BlockSource source) {
        try (FilterIndexer indexer = new FilterIndexer(store, source, POLL)) {
            return indexer.syncOnce();
        }
    }

    /** Filters and headers computed from the chain alone, with prevouts from the chain's own record. */
    private static void assertIndexMatchesChain(IndexStore store, MinedChainSource chain) {
        assertEquals(chain.height(), store.tip().orElseThrow().height());
        Sha256Hash prevHeader = FilterHeaders.GENESIS_PREV;
        for (int h = 0; h <= chain.height(); h++) {
            Block block = chain.blockAt(h);
            StoredBlock stored = store.block(block.getHash()).orElseThrow();
            BasicFilter expected = BasicFilter.build(block, chain::scriptOf);
            assertEquals(h, stored.height());
            assertArrayEquals(expected.bytes(), stored.filter(), "filter at height " + h);
            assertEquals(expected.filterHash(), stored.filterHash());
            assertEquals(prevHeader, stored.prevFilterHeader());
            prevHeader = FilterHeaders.next(expected.filterHash(), prevHeader);
            assertEquals(prevHeader, stored.filterHeader(), "filter header at height " + h);
            assertArrayEquals(Arrays.copyOf(block.serialize(), 80), stored.header());
            assertEquals(Optional.of(block.getHash()), store.hashAt(h));
        }
        assertTrue(store.hashAt(chain.height() + 1).isEmpty());
    }

    private static boolean unspent(IndexStore store, Transaction tx, int index) {
        return store.unspentScript(new TransactionOutPoint(index, tx.getTxId())).isPresent();
    }

    @Test
    void indexesEveryBlockFromGenesisWithItsFilterAndHeaderChain() {
        MinedChainSource chain = new MinedChainSource().mine(30);
        try (IndexStore store = IndexStore.open(dir)) {
            assertEquals(new FilterIndexer.SyncResult(31, 0), sync(store, chain));
            assertIndexMatchesChain(store, chain);
        }
    }

    @Test
    void unspentMapHoldsExactlyTheUnspentSpendableOutputs() {
        MinedChainSource chain = new MinedChainSource().mine(5);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            Block tip = chain.blockAt(5);
            Transaction coinbase = tip.getTransactions().get(0);
            Transaction spend = tip.getTransactions().get(1);
            Transaction chained = tip.getTransactions().get(2);
            assertTrue(unspent(store, coinbase, 0), "the tip's coinbase is unspent");
            assertFalse(unspent(store, chain.blockAt(4).getTransactions().get(0), 0), "spent by the next block");
            assertFalse(unspent(store, spend, 0), "created and spent in the same block");
            assertTrue(unspent(store, chained, 0));
            assertFalse(unspent(store, chained, 1), "OP_RETURN outputs are never stored");
        }
    }

    @Test
    void followsNewBlocksOnTheTip() {
        MinedChainSource chain = new MinedChainSource().mine(10);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            chain.mine(4);
            assertEquals(new FilterIndexer.SyncResult(4, 0), sync(store, chain));
            assertEquals(new FilterIndexer.SyncResult(0, 0), sync(store, chain));
            assertIndexMatchesChain(store, chain);
        }
    }

    @Test
    void reorgRollsBackToTheForkAndEqualsAFreshIndexOfTheNewChain() {
        MinedChainSource chain = new MinedChainSource().mine(20);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            List<Sha256Hash> dropped = List.of(
                    chain.blockAt(18).getHash(),
                    chain.blockAt(19).getHash(),
                    chain.blockAt(20).getHash());
            chain.reorg(3, 5);

            assertEquals(new FilterIndexer.SyncResult(5, 3), sync(store, chain));

            assertIndexMatchesChain(store, chain);
            try (IndexStore fresh = IndexStore.open(dir.resolve("fresh"))) {
                sync(fresh, chain);
                assertEquals(
                        fresh.inspection().contentDigest(CHAIN_STATE),
                        store.inspection().contentDigest(CHAIN_STATE));
            }
            StoreFilterIndexReader reader = new StoreFilterIndexReader(store);
            for (Sha256Hash stale : dropped) {
                IndexedFilter filter = reader.filter(stale).orElseThrow();
                assertFalse(filter.active(), "stale filter stays retrievable by hash");
                assertTrue(reader.heightOf(stale).isEmpty());
            }
        }
    }

    @Test
    void aBranchWithLessWorkIsNotFollowedUntilItHasMore() {
        MinedChainSource chain = new MinedChainSource().mine(12);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            Sha256Hash tip = store.tip().orElseThrow().hash();
            chain.reorg(4, 2); // two blocks at the same difficulty replace four: less work

            NodeAnswerException e = assertThrows(NodeAnswerException.class, () -> sync(store, chain));
            assertTrue(e.getMessage().contains("not more than the indexed chain's"), e.getMessage());
            assertEquals(tip, store.tip().orElseThrow().hash(), "nothing disconnected");

            chain.mine(3); // five blocks now: more work than the four they replace
            assertEquals(new FilterIndexer.SyncResult(5, 4), sync(store, chain));
            assertIndexMatchesChain(store, chain);
        }
    }

    @Test
    void aReorgWhoseBranchTheNodeCannotShowIsNotFollowed() {
        MinedChainSource chain = new MinedChainSource().mine(10);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            Sha256Hash tip = store.tip().orElseThrow().hash();
            chain.reorg(2, 3);
            BlockSource wrongHeaders = new ForwardingSource(chain) {
                @Override
                public Optional<byte[]> header(Sha256Hash hash) {
                    return Optional.of(Arrays.copyOf(chain.blockAt(1).serialize(), 80));
                }
            };

            NodeAnswerException e = assertThrows(NodeAnswerException.class, () -> sync(store, wrongHeaders));
            assertTrue(e.getMessage().contains("node returned header"), e.getMessage());
            assertEquals(tip, store.tip().orElseThrow().hash(), "nothing disconnected");

            assertEquals(new FilterIndexer.SyncResult(3, 2), sync(store, chain));
            assertIndexMatchesChain(store, chain);
        }
    }

    @Test
    void switchToAChainThatSharesOnlyGenesisIsFollowed() {
        MinedChainSource a = new MinedChainSource().mine(8);
        MinedChainSource b = new MinedChainSource().mine(8);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, a);
            a.reorg(2, 3);
            sync(store, a);
            sync(store, b.mine(2)); // b shares only genesis with a (unique coinbases) and is longer
            assertIndexMatchesChain(store, b);
            try (IndexStore fresh = IndexStore.open(dir.resolve("fresh"))) {
                sync(fresh, b);
                assertEquals(
                        fresh.inspection().contentDigest(CHAIN_STATE),
                        store.inspection().contentDigest(CHAIN_STATE));
            }
        }
    }

    @Test
    void restartResumesFromTheStoredTipWithIdenticalContent() {
        MinedChainSource chain = new MinedChainSource().mine(10);
        try (IndexStore store = IndexStore.open(dir.resolve("a"))) {
            sync(store, chain);
        }
        chain.mine(5);
        try (IndexStore store = IndexStore.open(dir.resolve("a"));
                IndexStore fresh = IndexStore.open(dir.resolve("b"))) {
            assertEquals(new FilterIndexer.SyncResult(5, 0), sync(store, chain));
            sync(fresh, chain);
            assertEquals(fresh.inspection().contentDigest(), store.inspection().contentDigest());
        }
    }

    @Test
    void blockSpendingAnUnknownOutputStopsIndexingAndKeepsTheLastGoodBlock() {
        MinedChainSource chain = new MinedChainSource().mine(3);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            Sha256Hash before = store.inspection().contentDigest();
            chain.mineSpendingUnknownOutput();

            IndexingException e = assertThrows(IndexingException.class, () -> sync(store, chain));

            assertTrue(e.getMessage().contains("not in the unspent-output map"), e.getMessage());
            assertEquals(before, store.inspection().contentDigest());
        }
    }

    @Test
    void refusesToIndexANodeOfAnotherChainIntoTheSameDataDirectory() {
        MinedChainSource chain = new MinedChainSource().mine(2);
        try (IndexStore store = IndexStore.open(dir)) {
            sync(store, chain);
            BlockSource otherGenesis = new ForwardingSource(chain) {
                @Override
                public Optional<Sha256Hash> hashAt(int height) {
                    return height == 0 ? Optional.of(Sha256Hash.of(new byte[] {1})) : super.hashAt(height);
                }
            };
            IndexingException e = assertThrows(IndexingException.class, () -> sync(store, otherGenesis));
            assertTrue(e.getMessage().contains("genesis"), e.getMessage());
        }
    }

    @Test
    void nodeReturningABlockOtherThanTheOneAskedForIsATypedError() {
        MinedChainSource chain = new MinedChainSource().mine(3);
        BlockSource lying = new ForwardingSource(chain) {
            @Override
            public Optional<byte[]> rawBlock(Sha256Hash hash) {
                return super.rawBlock(chain.blockAt(1).getHash());
            }
        };
        try (IndexStore store = IndexStore.open(dir)) {
            NodeAnswerException e = assertThrows(NodeAnswerException.class, () -> sync(store, lying));
            assertTrue(e.getMessage().contains("when asked for"), e.getMessage());
            assertTrue(store.tip().isEmpty());
        }
    }

    @Test
    void unparseableBlockIsATypedError() {
        MinedChainSource chain = new MinedChainSource().mine(1);
        BlockSource garbage = new ForwardingSource(chain) {
            @Override
            public Optional<byte[]> rawBlock(Sha256Hash hash) {
                return Optional.of(new byte[] {1, 2, 3});
            }
        };
        try (IndexStore store = IndexStore.open(dir)) {
            NodeAnswerException e = assertThrows(NodeAnswerException.class, () -> sync(store, garbage));
            assertTrue(e.getMessage().contains("does not parse"), e.getMessage());
        }
    }

    @Test
    void backgroundFollowerIndexesAndReportsTheNewTip() throws InterruptedException {
        MinedChainSource chain = new MinedChainSource().mine(6);
        try (IndexStore store = IndexStore.open(dir);
                FilterIndexer indexer = new FilterIndexer(store, chain, POLL)) {
            CountDownLatch reached = new CountDownLatch(1);
            indexer.onTipChanged(tip -> {
                if (tip.height() == 6) {
                    reached.countDown();
                }
            });
            indexer.start();
            assertTrue(reached.await(30, TimeUnit.SECONDS), "indexer reached height 6");
            FilterIndexer.Status status = indexer.status();
            assertEquals(6, status.indexedHeight());
            assertEquals(7, status.blocksConnected());
            assertTrue(status.lastFault().isEmpty());
        }
    }

    @Test
    void readerServesFiltersRangesAndHeadersFromTheStore() {
        MinedChainSource chain = new MinedChainSource().mine(4);
        try (IndexStore store = IndexStore.open(dir)) {
            StoreFilterIndexReader reader = new StoreFilterIndexReader(store);
            assertEquals(-1, reader.tip().height());
            sync(store, chain);

            assertEquals(new ChainTip(4, chain.blockAt(4).getHash()), reader.tip());
            Sha256Hash h2 = chain.blockAt(2).getHash();
            assertEquals(Optional.of(h2), reader.hashAt(2));
            assertEquals(2, reader.heightOf(h2).getAsInt());
            IndexedFilter f2 = reader.filter(h2).orElseThrow();
            assertTrue(f2.active());
            assertEquals(2, f2.height());
            List<IndexedFilter> range =
                    reader.range(1, chain.blockAt(3).getHash()).orElseThrow();
            assertEquals(3, range.size());
            assertEquals(f2, range.get(1));
            assertEquals(range.get(0).header(), range.get(1).prevHeader());
            assertArrayEquals(
                    Arrays.copyOf(chain.blockAt(2).serialize(), 80),
                    reader.blockHeader(h2).orElseThrow());
            assertTrue(reader.filter(Sha256Hash.ZERO_HASH).isEmpty());
            assertTrue(reader.range(3, chain.blockAt(2).getHash()).isEmpty());
        }
    }

    /** Delegates to another source; tests override one method to inject a misbehaving node. */
    private static class ForwardingSource implements BlockSource {
        private final BlockSource delegate;

        ForwardingSource(BlockSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public Sha256Hash bestBlockHash() {
            return delegate.bestBlockHash();
        }

        @Override
        public int bestHeight() {
            return delegate.bestHeight();
        }

        @Override
        public Optional<Sha256Hash> hashAt(int height) {
            return delegate.hashAt(height);
        }

        @Override
        public Optional<byte[]> rawBlock(Sha256Hash hash) {
            return delegate.rawBlock(hash);
        }
    }
}
