package org.blockfilter.filters.wire;

/**
 * Bytes do not decode: names the field, the offending value (when there is one) and the byte offset
 * where the field starts. Unchecked and a subtype of {@link IllegalArgumentException}: bad bytes are
 * bad arguments. Immutable.
 */
public class WireFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;
    private final String value;
    private final long offset;
    private final String reason;

    /**
     * @param field  which part of the encoding is wrong (e.g. {@code "filter length"})
     * @param value  the offending value as text, or null when there is none (e.g. a missing field)
     * @param offset byte offset where the field starts
     * @param reason what is wrong, in a few words
     */
    public WireFormatException(String field, Object value, long offset, String reason) {
        super(field + (value == null ? "" : " = " + value) + " at byte offset " + offset + ": " + reason);
        this.field = field;
        this.value = value == null ? null : String.valueOf(value);
        this.offset = offset;
        this.reason = reason;
    }

    /** The offending field. */
    public String field() {
        return field;
    }

    /** The offending value as text, or null when there is none. */
    public String value() {
        return value;
    }

    /** Byte offset where the field starts. */
    public long offset() {
        return offset;
    }

    /** What is wrong, without the field, value and offset. */
    public String reason() {
        return reason;
    }
}
