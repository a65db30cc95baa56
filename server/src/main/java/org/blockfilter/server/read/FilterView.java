package org.blockfilter.server.read;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;

/**
 * What serving one block's filter needs, with the filter as a read-only view of the bytes the
 * index read (no copy): block hash, height, filter hash (the ETag), whether the block is on the
 * best chain, and the serialized filter. Immutable; {@link #filter()} hands out a fresh view
 * each time. Never null fields.
 */
public final class FilterView {
    private final Sha256Hash blockHash;
    private final int height;
    private final Sha256Hash filterHash;
    private final boolean active;
    private final ByteBuffer filter;

    /** A view of {@code filter}'s remaining bytes (not copied; the caller does not change them). */
    public FilterView(Sha256Hash blockHash, int height, Sha256Hash filterHash, boolean active, ByteBuffer filter) {
        this.blockHash = Objects.requireNonNull(blockHash, "blockHash");
        this.height = height;
        this.filterHash = Objects.requireNonNull(filterHash, "filterHash");
        this.active = active;
        this.filter = Objects.requireNonNull(filter, "filter").asReadOnlyBuffer();
    }

    /** The view of an {@link IndexedFilter} (over a copy of its bytes). */
    public static FilterView of(IndexedFilter f) {
        return new FilterView(f.blockHash(), f.height(), f.filterHash(), f.active(), ByteBuffer.wrap(f.filter()));
    }

    /** The block's hash. */
    public Sha256Hash blockHash() {
        return blockHash;
    }

    /** The block's height. */
    public int height() {
        return height;
    }

    /** SHA-256d of the serialized filter (the ETag). */
    public Sha256Hash filterHash() {
        return filterHash;
    }

    /** Whether the block is on the indexed best chain. */
    public boolean active() {
        return active;
    }

    /** The serialized filter, read-only, from position 0 to its length. */
    public ByteBuffer filter() {
        return filter.duplicate();
    }

    /** The serialized filter's length in bytes. */
    public int filterLength() {
        return filter.remaining();
    }
}
