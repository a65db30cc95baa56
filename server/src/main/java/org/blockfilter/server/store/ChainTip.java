package org.blockfilter.server.store;

import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;

/**
 * Height and hash of the highest indexed best-chain block: what {@link IndexStore#tip()} holds
 * and what the read side ({@code FilterIndexReader#tip()}) answers. Before genesis is indexed the
 * store has no tip (an empty {@code Optional}) and the read side answers {@link #NONE}.
 *
 * @param height the block's height, or -1 for {@link #NONE}
 * @param hash the block's hash, the zero hash for {@link #NONE}
 */
public record ChainTip(int height, Sha256Hash hash) {
    /** The tip of an index that holds no block yet: height -1, the zero hash. */
    public static final ChainTip NONE = new ChainTip(-1, Sha256Hash.ZERO_HASH);

    /**
     * @throws IllegalArgumentException if {@code height} is below -1, or -1 with another hash than zero
     */
    public ChainTip {
        Objects.requireNonNull(hash, "hash");
        if (height < -1 || (height == -1 && !hash.equals(Sha256Hash.ZERO_HASH))) {
            throw new IllegalArgumentException("no tip at height " + height + " with hash " + hash);
        }
    }
}
