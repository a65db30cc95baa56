package org.blockfilter.server.http.internal;

/** HTTP 404: an unknown block, or a block not on the best chain. {@link #code()} is the machine-readable error code of the JSON error body. */
public final class NotFoundException extends RuntimeException {
    private final String code;

    public NotFoundException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
