package org.blockfilter.filters.chain;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import org.bitcoinj.base.Sha256Hash;

/**
 * A block header a header chain may start from instead of genesis, with what is needed to continue
 * it: its height, its 80 serialized bytes (so the next header's link, proof of work and time can be
 * checked) and the chain's total work up to and including it (so a branch from it can be compared
 * by work with any other). This is what bitcoinj's {@code CheckpointManager}, Kyoto and neutrino
 * ship per network. A checkpoint at a difficulty-retarget boundary (a multiple of 2016) lets the
 * next retarget be checked from headers downloaded after it.
 *
 * <p>Immutable; the header bytes are copied in and out. Never null fields.
 *
 * @param height    the block's height, >= 0
 * @param header    the 80-byte serialized block header
 * @param chainWork the sum of the work of every block from genesis to this one, > 0
 */
public record HeaderCheckpoint(int height, byte[] header, BigInteger chainWork) {
    /** The length of a serialized block header. */
    public static final int HEADER_BYTES = 80;

    public HeaderCheckpoint {
        if (height < 0) {
            throw new IllegalArgumentException("checkpoint height must be >= 0, got " + height);
        }
        if (header == null || header.length != HEADER_BYTES) {
            throw new IllegalArgumentException("checkpoint header must be " + HEADER_BYTES + " bytes, got "
                    + (header == null ? "none" : header.length));
        }
        if (chainWork == null || chainWork.signum() <= 0) {
            throw new IllegalArgumentException("checkpoint chain work must be > 0, got " + chainWork);
        }
        header = header.clone();
    }

    @Override
    public byte[] header() {
        return header.clone();
    }

    /** The block hash (double SHA-256 of the header), in the usual display order. */
    public Sha256Hash hash() {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HeaderCheckpoint c
                && height == c.height
                && Arrays.equals(header, c.header)
                && chainWork.equals(c.chainWork);
    }

    @Override
    public int hashCode() {
        return (height * 31 + Arrays.hashCode(header)) * 31 + chainWork.hashCode();
    }

    @Override
    public String toString() {
        return "HeaderCheckpoint[" + height + " " + hash() + " work " + chainWork.toString(16) + " "
                + HexFormat.of().formatHex(header) + "]";
    }
}
