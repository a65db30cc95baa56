package org.blockfilter.regtest.embedded.internal;

import java.math.BigInteger;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * A block the node stores, whether on the best chain or not: its parsed form, its exact wire
 * bytes, its parent, height and cumulative work. Everything is fixed at creation except the
 * validity flag, which {@link Chain} changes under its lock. The parsed {@link Block} is a
 * mutable bitcoinj object: only {@link Chain}'s lock holder may touch it.
 */
public final class BlockEntry {
    private final Sha256Hash hash;
    private final Block block;
    private final byte[] raw;
    private final BlockEntry prev;
    private final int height;
    private final BigInteger chainWork;
    private final long sequence;
    private RejectedException failure;

    BlockEntry(Block block, byte[] raw, BlockEntry prev, long sequence) {
        this.hash = block.getHash();
        this.block = block;
        this.raw = raw.clone();
        this.prev = prev;
        this.height = prev == null ? 0 : prev.height + 1;
        BigInteger work = Consensus.work(block.getDifficultyTarget());
        this.chainWork = prev == null ? work : prev.chainWork.add(work);
        this.sequence = sequence;
    }

    public Sha256Hash hash() {
        return hash;
    }

    public Block block() {
        return block;
    }

    /** A copy of the block's wire serialization, with witnesses. */
    public byte[] raw() {
        return raw.clone();
    }

    public int rawSize() {
        return raw.length;
    }

    /** The parent, or null for the genesis block. */
    public BlockEntry prev() {
        return prev;
    }

    public int height() {
        return height;
    }

    public BigInteger chainWork() {
        return chainWork;
    }

    /** Arrival order; among chains of equal work the first one seen wins, as in Bitcoin Core. */
    long sequence() {
        return sequence;
    }

    /** Whether the block (or an ancestor) failed validation or was invalidated by hand. */
    public boolean invalid() {
        return failure != null;
    }

    /** Why the block is invalid (Core's reason and details), or null if it is not. */
    public RejectedException failure() {
        return failure;
    }

    void markInvalid(RejectedException why) {
        this.failure = why;
    }

    void clearInvalid() {
        this.failure = null;
    }

    /** The ancestor at {@code h} (this block if {@code h == height()}), or null above this block. */
    public BlockEntry ancestor(int h) {
        if (h > height || h < 0) {
            return null;
        }
        BlockEntry e = this;
        while (e.height > h) {
            e = e.prev;
        }
        return e;
    }
}
