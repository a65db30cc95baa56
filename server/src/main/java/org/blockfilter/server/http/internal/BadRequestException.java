package org.blockfilter.server.http.internal;

/** HTTP 400: malformed or out-of-range input. {@link #code()} is the machine-readable error code of the JSON error body. */
public final class BadRequestException extends RuntimeException {
    private final String code;

    public BadRequestException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
