package org.blockfilter.server.read;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.store.BlockRecord;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;

/**
 * {@link FilterIndexReader} over an {@link IndexStore}: what the REST layer reads while the
 * indexer writes. Thread-safe (the store is); a filter is {@code active} while its block is at
 * its height on the indexed best chain.
 */
public final class StoreFilterIndexReader implements FilterIndexReader {
    private final IndexStore store;

    /** Reads {@code store}, primary or secondary, as it is when each call runs. */
    public StoreFilterIndexReader(IndexStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public List<org.blockfilter.server.store.StoreDamage.Damaged> damage() {
        return store.damage().files();
    }

    @Override
    public long damagedReads() {
        return store.damage().damagedReads();
    }

    @Override
    public ChainTip tip() {
        return store.tip().orElse(ChainTip.NONE);
    }

    @Override
    public Optional<Sha256Hash> hashAt(int height) {
        return store.hashAt(height);
    }

    @Override
    public OptionalInt heightOf(Sha256Hash blockHash) {
        Optional<StoredBlock> block = store.block(blockHash);
        return block.isPresent() && store.isActive(block.get())
                ? OptionalInt.of(block.get().height())
                : OptionalInt.empty();
    }

    @Override
    public Optional<IndexedFilter> filter(Sha256Hash blockHash) {
        return store.block(blockHash).map(b -> toFilter(b, store.isActive(b)));
    }

    @Override
    public Optional<FilterView> filterView(Sha256Hash blockHash) {
        return store.blockRecord(blockHash).map(this::view);
    }

    @Override
    public Optional<FilterView> filterView(Sha256Hash blockHash, ByteBuffer buffer) {
        return store.blockRecord(blockHash, buffer).map(this::view);
    }

    private FilterView view(BlockRecord r) {
        int height = r.height();
        boolean active = store.hashAt(height).map(r.blockHash()::equals).orElse(false);
        return new FilterView(r.blockHash(), height, r.filterHash(), active, r.filter());
    }

    @Override
    public Optional<List<IndexedFilter>> range(int startHeight, Sha256Hash stopHash) {
        return store.activeRange(startHeight, stopHash)
                .map(blocks -> blocks.stream().map(b -> toFilter(b, true)).toList());
    }

    @Override
    public Optional<RangeCursor> openRange(int startHeight, Sha256Hash stopHash) {
        return store.openActiveRange(startHeight, stopHash).map(blocks -> new RangeCursor() {
            @Override
            public int stopHeight() {
                return blocks.stopHeight();
            }

            @Override
            public boolean hasNext() {
                return blocks.hasNext();
            }

            @Override
            public IndexedFilter next() {
                return toFilter(blocks.next(), true);
            }

            @Override
            public boolean writeNextEntry(ByteBuffer out) {
                return blocks.writeNextEntry(out);
            }

            @Override
            public FilterView nextView() {
                BlockRecord r = blocks.nextRecord();
                return new FilterView(r.blockHash(), r.height(), r.filterHash(), true, r.filter());
            }

            @Override
            public void close() {
                blocks.close();
            }
        });
    }

    @Override
    public Optional<byte[]> blockHeader(Sha256Hash blockHash) {
        return store.block(blockHash).map(StoredBlock::header);
    }

    private static IndexedFilter toFilter(StoredBlock b, boolean active) {
        return new IndexedFilter(
                b.blockHash(), b.height(), b.filter(), b.filterHash(), b.filterHeader(), b.prevFilterHeader(), active);
    }
}
