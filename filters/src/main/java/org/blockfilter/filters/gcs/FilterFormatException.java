package org.blockfilter.filters.gcs;

/**
 * An encoded filter (or one of its parts) is malformed. Names the offending field, its value and the
 * byte offset into the encoding where the problem was found, so that a bad filter from a peer or a
 * store can be reported precisely.
 *
 * <p>Unchecked and a subtype of {@link IllegalArgumentException}: bad bytes are bad arguments.
 */
public final class FilterFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String value;
    private final long offset;

    /**
     * @param field  which part of the encoding is wrong (e.g. {@code "N"}, {@code "quotient"})
     * @param value  the offending value as text (a number, or a short description)
     * @param offset byte offset into the encoding where the problem was detected
     * @param reason what is wrong, in a few words
     */
    public FilterFormatException(String field, Object value, long offset, String reason) {
        super("bad filter " + field + " = " + value + " at byte offset " + offset + ": " + reason);
        this.field = field;
        this.value = String.valueOf(value);
        this.offset = offset;
    }

    /** The offending field, e.g. {@code "N"}, {@code "quotient"}, {@code "padding"}, {@code "trailing data"}. */
    public String field() {
        return field;
    }

    /** The offending value, as text. */
    public String value() {
        return value;
    }

    /** Byte offset into the encoding where the problem was detected. */
    public long offset() {
        return offset;
    }
}
