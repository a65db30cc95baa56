package org.blockfilter.regtest;

/**
 * A regtest node failed: it could not be installed or started, died, did not answer in time, or
 * rejected a request. The message names the node and, where the node has a log, ends with its
 * last lines, so a failing test shows why without anyone having to find the log file.
 */
public final class RegtestNodeException extends RuntimeException {
    private final String logTail;

    public RegtestNodeException(String message, String logTail, Throwable cause) {
        super(
                logTail == null || logTail.isBlank()
                        ? message
                        : message + "\n--- last lines of the node's log ---\n" + logTail.stripTrailing(),
                cause);
        this.logTail = logTail == null ? "" : logTail;
    }

    public RegtestNodeException(String message, Throwable cause) {
        this(message, null, cause);
    }

    /** The end of the node's log when the failure happened; empty if the node has no log. */
    public String logTail() {
        return logTail;
    }
}
