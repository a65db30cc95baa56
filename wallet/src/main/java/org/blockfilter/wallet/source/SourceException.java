package org.blockfilter.wallet.source;

/**
 * A chain source did not answer: it failed, timed out, refused the request (as {@link
 * NotAcceptedException} says for a transaction) or could not be reached. Names the source. An
 * answer that came but is invalid is the subtype {@link InvalidAnswerException}.
 */
public class SourceException extends RuntimeException {
    private final String source;

    /**
     * {@code source} did not answer; the message (prefixed with the source's name) says why, {@code cause} is the
     * underlying failure.
     */
    public SourceException(String source, String message, Throwable cause) {
        super(source + ": " + message, cause);
        this.source = source;
    }

    /** {@code source} did not answer; the message (prefixed with the source's name) says why. */
    public SourceException(String source, String message) {
        this(source, message, null);
    }

    /** The {@link ChainSource#name()} of the source that failed. */
    public String source() {
        return source;
    }
}
