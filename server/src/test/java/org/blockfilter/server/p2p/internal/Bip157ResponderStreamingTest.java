package org.blockfilter.server.p2p.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.server.http.P2pFixtures;
import org.blockfilter.server.node.BlockCache;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.store.ChainTip;
import org.junit.jupiter.api.Test;

/**
 * {@code getcfilters} answers are written as the index cursor reads them: each {@code cfilter}
 * reaches the peer's outbox before the next filter is read, so a request never holds its up to
 * 1000 filters at once.
 */
class Bip157ResponderStreamingTest {
    private static final int LENGTH = 1100;

    private final P2pFixtures.Fixture fixture = P2pFixtures.build(LENGTH);
    private final CountingIndex index = new CountingIndex(fixture.index());
    private final Bip157Responder responder = new Bip157Responder(
            index, fixture.node(), new BlockCache(fixture.node(), 1 << 20), new RelayedTxs(10, 1 << 20));

    private Message.GetCFilters request(int start, int stop) {
        return new Message.GetCFilters(
                Bip158.BASIC_FILTER_TYPE, start, fixture.active().get(stop).blockHash());
    }

    @Test
    void eachCfilterIsSentBeforeTheNextFilterIsRead() throws InterruptedException {
        List<Message.CFilter> sent = new ArrayList<>();
        responder.cfilters(request(50, 1049), m -> {
            assertEquals(sent.size() + 1, index.read, "filters read ahead of what was sent");
            sent.add((Message.CFilter) m);
        });
        assertEquals(1000, sent.size());
        for (int i = 0; i < sent.size(); i++) {
            IndexedFilter expected = fixture.active().get(50 + i);
            assertEquals(expected.blockHash(), sent.get(i).blockHash());
            assertArrayEquals(expected.filter(), sent.get(i).filter());
        }
        assertTrue(index.closed, "the cursor was not closed");
    }

    @Test
    void aPeerGoneMidRangeStopsTheReadingAndReleasesTheCursor() {
        int[] sent = {0};
        assertThrows(
                InterruptedException.class,
                () -> responder.cfilters(request(0, 999), m -> {
                    if (++sent[0] == 10) {
                        throw new InterruptedException("peer gone");
                    }
                }));
        assertEquals(10, index.read);
        assertTrue(index.closed, "the cursor was not closed");
    }

    @Test
    void aStaleStopHashGetsNoAnswerAndOpensNoCursor() throws InterruptedException {
        List<Message> sent = new ArrayList<>();
        responder.cfilters(
                new Message.GetCFilters(
                        Bip158.BASIC_FILTER_TYPE, 0, fixture.stale().blockHash()),
                sent::add);
        assertTrue(sent.isEmpty());
        assertEquals(0, index.opened);
    }

    /** The fixture's index whose ranges can only be read through a counting cursor. */
    private static final class CountingIndex implements FilterIndexReader {
        private final FilterIndexReader delegate;
        int opened;
        int read;
        boolean closed;

        CountingIndex(FilterIndexReader delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<List<IndexedFilter>> range(int startHeight, Sha256Hash stopHash) {
            throw new AssertionError("getcfilters built the whole range in memory");
        }

        @Override
        public Optional<RangeCursor> openRange(int startHeight, Sha256Hash stopHash) {
            return delegate.openRange(startHeight, stopHash).map(cursor -> {
                opened++;
                return new RangeCursor() {
                    @Override
                    public int stopHeight() {
                        return cursor.stopHeight();
                    }

                    @Override
                    public boolean hasNext() {
                        return cursor.hasNext();
                    }

                    @Override
                    public IndexedFilter next() {
                        read++;
                        return cursor.next();
                    }

                    @Override
                    public void close() {
                        closed = true;
                        cursor.close();
                    }
                };
            });
        }

        @Override
        public ChainTip tip() {
            return delegate.tip();
        }

        @Override
        public Optional<Sha256Hash> hashAt(int height) {
            return delegate.hashAt(height);
        }

        @Override
        public OptionalInt heightOf(Sha256Hash blockHash) {
            return delegate.heightOf(blockHash);
        }

        @Override
        public Optional<IndexedFilter> filter(Sha256Hash blockHash) {
            return delegate.filter(blockHash);
        }

        @Override
        public Optional<byte[]> blockHeader(Sha256Hash blockHash) {
            return delegate.blockHeader(blockHash);
        }
    }
}
