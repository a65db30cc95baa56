package org.blockfilter.server.index;

import java.util.List;
import java.util.Objects;

/**
 * A block's wire serialization and the scriptPubKeys of the outputs its inputs spend, one per
 * input of every transaction but the coinbase, in block order (what Bitcoin Core's {@code getblock
 * hash 3} reports as {@code vin[].prevout.scriptPubKey}). Holds its arrays without copying: made
 * and read by the indexer only.
 */
public record BlockWithPrevouts(byte[] raw, List<byte[]> prevoutScripts) {
    public BlockWithPrevouts {
        Objects.requireNonNull(raw, "raw");
        prevoutScripts = List.copyOf(prevoutScripts);
    }
}
