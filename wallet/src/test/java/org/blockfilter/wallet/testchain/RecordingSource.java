package org.blockfilter.wallet.testchain;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.testing.RegtestChainBuilder;

/**
 * A {@link MemorySource} that records the heights of the blocks asked of it, in order, and shows its chain only up
 * to {@link #tip} (so a test can let the chain grow block by block).
 */
public final class RecordingSource extends MemorySource {
    public final List<Integer> asked = new ArrayList<>();
    /** The highest height the source admits to; the whole chain by default. */
    public int tip = Integer.MAX_VALUE;

    public RecordingSource(String name, RegtestChainBuilder chain) {
        super(name, chain);
    }

    @Override
    public int tipHeight() {
        return Math.min(tip, super.tipHeight());
    }

    @Override
    public List<byte[]> blockHeaders(int startHeight, int count) {
        int n = Math.max(0, Math.min(count, tipHeight() - startHeight + 1));
        return n == 0 ? List.of() : super.blockHeaders(startHeight, n);
    }

    @Override
    public byte[] block(Sha256Hash blockHash) {
        asked.add(chain().height(blockHash));
        return super.block(blockHash);
    }
}
