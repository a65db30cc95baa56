package org.blockfilter.wallet.testchain;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.testing.RegtestChainBuilder;

/** A {@link MemorySource} that records the heights of the blocks asked of it, in order. */
public final class RecordingSource extends MemorySource {
    public final List<Integer> asked = new ArrayList<>();

    public RecordingSource(String name, RegtestChainBuilder chain) {
        super(name, chain);
    }

    @Override
    public byte[] block(Sha256Hash blockHash) {
        asked.add(chain().height(blockHash));
        return super.block(blockHash);
    }
}
