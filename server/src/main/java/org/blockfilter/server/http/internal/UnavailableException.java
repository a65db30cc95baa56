package org.blockfilter.server.http.internal;

/** HTTP 503: the index is behind the requested block, or the node is unreachable; sent with Retry-After. {@link #code()} is the machine-readable error code of the JSON error body. */
public final class UnavailableException extends RuntimeException {
    private final String code;

    public UnavailableException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
