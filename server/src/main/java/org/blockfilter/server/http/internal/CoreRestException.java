package org.blockfilter.server.http.internal;

/**
 * An error of a Bitcoin Core-compatible endpoint, answered as Core does: {@code text/plain}, the
 * message followed by CRLF, with Core's status code.
 */
public final class CoreRestException extends RuntimeException {
    private final int status;

    public CoreRestException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
