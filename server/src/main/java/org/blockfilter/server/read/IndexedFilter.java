package org.blockfilter.server.read;

import java.util.Arrays;
import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;

/**
 * One block's stored BIP 158 basic filter with its BIP 157 header. Immutable: the filter bytes
 * are copied in and out, and equality is by content. {@code active} is false for a block that
 * left the best chain in a reorg (its filter stays retrievable by hash, as in Bitcoin Core).
 */
public final class IndexedFilter {
    private final Sha256Hash blockHash;
    private final int height;
    private final byte[] filter;
    private final Sha256Hash filterHash;
    private final Sha256Hash header;
    private final Sha256Hash prevHeader;
    private final boolean active;

    /**
     * @param filter the serialized filter (copied)
     * @param header the block's filter header; {@code prevHeader} is its parent's
     * @param active whether the block is on the indexed best chain
     * @throws IllegalArgumentException if {@code height} is negative
     */
    public IndexedFilter(
            Sha256Hash blockHash,
            int height,
            byte[] filter,
            Sha256Hash filterHash,
            Sha256Hash header,
            Sha256Hash prevHeader,
            boolean active) {
        this.blockHash = Objects.requireNonNull(blockHash, "blockHash");
        if (height < 0) {
            throw new IllegalArgumentException("height must be >= 0: " + height);
        }
        this.height = height;
        this.filter = Objects.requireNonNull(filter, "filter").clone();
        this.filterHash = Objects.requireNonNull(filterHash, "filterHash");
        this.header = Objects.requireNonNull(header, "header");
        this.prevHeader = Objects.requireNonNull(prevHeader, "prevHeader");
        this.active = active;
    }

    /** The block's hash. */
    public Sha256Hash blockHash() {
        return blockHash;
    }

    /** The block's height (on the best chain if {@link #active()}, where it was if not). */
    public int height() {
        return height;
    }

    /** The serialized filter (CompactSize N + Golomb-Rice stream); a copy. */
    public byte[] filter() {
        return filter.clone();
    }

    /** The serialized filter's length in bytes. */
    public int filterLength() {
        return filter.length;
    }

    /** SHA-256d of the serialized filter (what BIP 157's filter headers chain). */
    public Sha256Hash filterHash() {
        return filterHash;
    }

    /** The block's BIP 157 filter header. */
    public Sha256Hash header() {
        return header;
    }

    /** The filter header of the block's parent (zero for genesis). */
    public Sha256Hash prevHeader() {
        return prevHeader;
    }

    /** Whether the block is on the indexed best chain (false: stale, left it in a reorg). */
    public boolean active() {
        return active;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexedFilter f
                && height == f.height
                && active == f.active
                && blockHash.equals(f.blockHash)
                && Arrays.equals(filter, f.filter)
                && filterHash.equals(f.filterHash)
                && header.equals(f.header)
                && prevHeader.equals(f.prevHeader);
    }

    @Override
    public int hashCode() {
        return blockHash.hashCode() * 31 + Arrays.hashCode(filter);
    }

    @Override
    public String toString() {
        return "IndexedFilter[" + height + " " + blockHash + " header=" + header + (active ? "" : " stale") + "]";
    }
}
