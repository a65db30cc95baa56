package org.blockfilter.wallet.sync;

import java.util.List;

/**
 * What one sync did: the tip reached, filters matched, blocks that matched and were fetched,
 * the depth of any reorg, the sources dropped and why, and the stored data
 * rolled back because the live sources contradicted it and the blocks could not refute them, the
 * block-fetch policy used and the decoy blocks it downloaded (verified, then discarded). Immutable.
 */
public record SyncReport(
        int tipHeight,
        int filtersScanned,
        int matchedBlocks,
        int reorgDepth,
        List<SourceFault> dropped,
        List<String> sourcesUsed,
        List<String> rollbacks,
        FetchPolicy fetchPolicy,
        int decoyBlocks) {
    public SyncReport {
        dropped = List.copyOf(dropped);
        sourcesUsed = List.copyOf(sourcesUsed);
        rollbacks = List.copyOf(rollbacks);
    }
}
