package org.blockfilter.wallet.sync;

import java.util.List;

/**
 * What one sync did: the tip reached, filters matched, blocks that matched and were fetched,
 * the depth of any reorg, the sources dropped and why. Immutable.
 */
public record SyncReport(
        int tipHeight,
        int filtersScanned,
        int matchedBlocks,
        int reorgDepth,
        List<SourceFault> dropped,
        List<String> sourcesUsed) {
    public SyncReport {
        dropped = List.copyOf(dropped);
        sourcesUsed = List.copyOf(sourcesUsed);
    }
}
