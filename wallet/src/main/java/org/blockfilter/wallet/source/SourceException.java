package org.blockfilter.wallet.source;

/** A chain source failed, timed out, or answered with malformed data. Names the source. */
public class SourceException extends RuntimeException {
    private final String source;

    public SourceException(String source, String message, Throwable cause) {
        super(source + ": " + message, cause);
        this.source = source;
    }

    public SourceException(String source, String message) {
        this(source, message, null);
    }

    /** The {@link ChainSource#name()} of the source that failed. */
    public String source() {
        return source;
    }
}
