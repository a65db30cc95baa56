package org.blockfilter.server.store;

import java.util.Arrays;
import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;

/**
 * What the store keeps per indexed block, on the best chain or not: its height, 80-byte
 * header, BIP 158 basic filter, filter hash and BIP 157 filter header with the previous one.
 * Immutable: byte arrays are copied in and out; equality is by content. No nulls.
 */
public final class StoredBlock {
    /** Size of a serialized block header. */
    public static final int HEADER_SIZE = 80;

    private final Sha256Hash blockHash;
    private final int height;
    private final byte[] header;
    private final Sha256Hash filterHash;
    private final Sha256Hash filterHeader;
    private final Sha256Hash prevFilterHeader;
    private final byte[] filter;

    public StoredBlock(
            Sha256Hash blockHash,
            int height,
            byte[] header,
            Sha256Hash filterHash,
            Sha256Hash filterHeader,
            Sha256Hash prevFilterHeader,
            byte[] filter) {
        this.blockHash = Objects.requireNonNull(blockHash, "blockHash");
        if (height < 0) {
            throw new IllegalArgumentException("height must be >= 0: " + height);
        }
        this.height = height;
        if (Objects.requireNonNull(header, "header").length != HEADER_SIZE) {
            throw new IllegalArgumentException("block header must be " + HEADER_SIZE + " bytes: " + header.length);
        }
        this.header = header.clone();
        this.filterHash = Objects.requireNonNull(filterHash, "filterHash");
        this.filterHeader = Objects.requireNonNull(filterHeader, "filterHeader");
        this.prevFilterHeader = Objects.requireNonNull(prevFilterHeader, "prevFilterHeader");
        this.filter = Objects.requireNonNull(filter, "filter").clone();
    }

    public Sha256Hash blockHash() {
        return blockHash;
    }

    public int height() {
        return height;
    }
    /** The 80-byte block header; a copy. */
    public byte[] header() {
        return header.clone();
    }

    public Sha256Hash filterHash() {
        return filterHash;
    }

    public Sha256Hash filterHeader() {
        return filterHeader;
    }

    public Sha256Hash prevFilterHeader() {
        return prevFilterHeader;
    }
    /** The serialized basic filter; a copy. */
    public byte[] filter() {
        return filter.clone();
    }

    /** The previous block's hash, read from the header. */
    public Sha256Hash prevBlockHash() {
        return Sha256Hash.wrapReversed(Arrays.copyOfRange(header, 4, 36));
    }

    byte[] headerUnsafe() {
        return header;
    }

    byte[] filterUnsafe() {
        return filter;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredBlock b
                && height == b.height
                && blockHash.equals(b.blockHash)
                && Arrays.equals(header, b.header)
                && filterHash.equals(b.filterHash)
                && filterHeader.equals(b.filterHeader)
                && prevFilterHeader.equals(b.prevFilterHeader)
                && Arrays.equals(filter, b.filter);
    }

    @Override
    public int hashCode() {
        return blockHash.hashCode();
    }

    @Override
    public String toString() {
        return "StoredBlock[" + height + " " + blockHash + " filterHeader=" + filterHeader + "]";
    }
}
