package org.blockfilter.wallet.sync;

/**
 * Where the sync phases hand what they learned: the engine applies each {@link SyncUpdate} to the
 * wallet at once (so the next request is checked against it) and saves at the end of each
 * verified step.
 */
interface UpdateSink {
    /** Applies {@code update} to the wallet now; nothing is saved yet. */
    void apply(SyncUpdate update);

    /** A verified step is done: the wallet is saved and progress reported as {@code phase}. */
    void stepDone(String phase);

    /** Reports progress as {@code phase} without saving. */
    void progress(String phase);
}
