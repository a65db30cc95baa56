package org.blockfilter.wallet.sync;

import java.util.List;

/** Sync cannot finish without risking a wrong balance: no honest source left, or a dispute the evidence cannot settle. */
public class SyncException extends RuntimeException {
    private final List<SourceFault> faults;

    /**
     * Sync stopped for the reason in {@code message}; {@code faults} are the sources dropped on the way (their names
     * and verdicts join the message).
     */
    public SyncException(String message, List<SourceFault> faults) {
        super(message + (faults.isEmpty() ? "" : "; dropped sources: " + faults));
        this.faults = List.copyOf(faults);
    }

    /** Every source dropped during the sync and why. */
    public List<SourceFault> faults() {
        return faults;
    }
}
