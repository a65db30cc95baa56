package org.blockfilter.wallet.sync;

/**
 * Where a sync stands, for progress bars: the verified header tip, the verified filter-header
 * tip, the highest height whose filter was matched, the target tip, and how many blocks matched.
 * Immutable.
 */
public record SyncProgress(
        String phase,
        int headersHeight,
        int filterHeadersHeight,
        int filtersHeight,
        int targetHeight,
        int matchedBlocks,
        int firstFilterHeight) {

    /** Listener for progress; called on the syncing thread. */
    @FunctionalInterface
    public interface Listener {
        /** Called with each new progress value. */
        void onProgress(SyncProgress progress);
    }
}
