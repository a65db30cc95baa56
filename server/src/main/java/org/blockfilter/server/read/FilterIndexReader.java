package org.blockfilter.server.read;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.store.ChainTip;

/**
 * Read side of the filter index, all the REST layer needs. Heights refer to the best chain as
 * indexed so far; lookups by hash also find blocks that left the best chain (stale filters).
 * Implementations are thread-safe and never return null. Each call sees one consistent
 * snapshot; a sequence of calls may straddle a newly indexed block or a reorg, so callers that
 * need consistency across calls (ranges) take it from {@link #range}.
 */
public interface FilterIndexReader {

    /** Height and hash of the highest indexed best-chain block; {@link ChainTip#NONE} before genesis is indexed. */
    ChainTip tip();

    /** Best-chain block hash at {@code height}, if indexed. */
    Optional<Sha256Hash> hashAt(int height);

    /** Height of the block if it is on the indexed best chain. */
    OptionalInt heightOf(Sha256Hash blockHash);

    /** The filter of any indexed block, on the best chain or stale. */
    Optional<IndexedFilter> filter(Sha256Hash blockHash);

    /** {@link #filter} without copying the filter bytes, for serving them as they are. */
    default Optional<FilterView> filterView(Sha256Hash blockHash) {
        return filter(blockHash).map(FilterView::of);
    }

    /**
     * {@link #filterView(Sha256Hash)} read into {@code buffer} (direct, any content) where the
     * implementation can, so the filter reaches the socket with no copy on the heap: the view's
     * filter may then be a region of {@code buffer}, valid while the caller does not reuse it.
     * This default ignores the buffer.
     */
    default Optional<FilterView> filterView(Sha256Hash blockHash, ByteBuffer buffer) {
        return filterView(blockHash);
    }

    /**
     * Best-chain filters from {@code startHeight} to the block {@code stopHash}, inclusive, read
     * from one snapshot (BIP 157 getcfilters/getcfheaders semantics). Empty if stopHash is not on
     * the indexed best chain or is below startHeight. The caller enforces the size limits.
     */
    Optional<List<IndexedFilter>> range(int startHeight, Sha256Hash stopHash);

    /**
     * The filters of {@link #range} one at a time, from the same one snapshot, for answers too
     * large to hold whole. The cursor must be closed, on the thread that opened it (it may hold
     * the store's read lock and a snapshot). This default reads the whole range up front, for
     * implementations that hold everything in memory anyway.
     */
    default Optional<RangeCursor> openRange(int startHeight, Sha256Hash stopHash) {
        return range(startHeight, stopHash).map(filters -> new RangeCursor() {
            private final Iterator<IndexedFilter> it = filters.iterator();

            @Override
            public int stopHeight() {
                return filters.get(filters.size() - 1).height();
            }

            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public IndexedFilter next() {
                return it.next();
            }

            @Override
            public void close() {}
        });
    }

    /** Best-chain filters of one range in height order; see {@link #openRange}. Not thread-safe. */
    interface RangeCursor extends Iterator<IndexedFilter>, AutoCloseable {
        /** Height of the range's last block. */
        int stopHeight();

        /** {@link #next()} without copying the filter bytes; same contract. */
        default FilterView nextView() {
            return FilterView.of(next());
        }

        /**
         * Puts the next block into {@code out} (direct, fill mode) as block hash (32, wire order),
         * CompactSize filter length and filter, and moves on; false, staying at that block, when
         * it does not fit or this cursor cannot write into a buffer (this default): then use
         * {@link #nextView()}. Bytes after {@code out}'s position are undefined afterwards.
         */
        default boolean writeNextEntry(ByteBuffer out) {
            return false;
        }

        /** Releases what the cursor holds; idempotent. */
        @Override
        void close();
    }

    /** The block's 80-byte header, for any indexed block. */
    Optional<byte[]> blockHeader(Sha256Hash blockHash);

    /** Damaged files reads have found in the index (empty while none has). */
    default List<org.blockfilter.server.store.StoreDamage.Damaged> damage() {
        return List.of();
    }

    /** Reads that failed on damage since the index was opened. */
    default long damagedReads() {
        return 0;
    }
}
