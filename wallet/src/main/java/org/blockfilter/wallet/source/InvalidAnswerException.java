package org.blockfilter.wallet.source;

/**
 * The source answered, and what it sent is invalid: malformed, not what was asked for, or
 * contradicting itself (headers that do not link, a block that does not hash to the request).
 * A plain {@link SourceException} means the source did not answer: a transport failure, a
 * timeout or a refusal. The sync engine counts the first as a lie and the second as a failure.
 */
public class InvalidAnswerException extends SourceException {
    /** An invalid answer from {@code source}: what was wrong with it, and the parse error that showed it. */
    public InvalidAnswerException(String source, String message, Throwable cause) {
        super(source, message, cause);
    }

    /** An invalid answer from {@code source}, and what was wrong with it. */
    public InvalidAnswerException(String source, String message) {
        this(source, message, null);
    }
}
