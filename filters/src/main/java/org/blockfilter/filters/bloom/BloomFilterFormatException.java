package org.blockfilter.filters.bloom;

/**
 * A {@code filterload} (or {@code filteradd}) payload that is not a valid BIP 37 filter.
 * The message names the field, the offending value and the byte offset.
 */
public final class BloomFilterFormatException extends RuntimeException {
    private final String field;
    private final long offset;

    BloomFilterFormatException(String field, long offset, String problem) {
        super(field + " at byte offset " + offset + ": " + problem);
        this.field = field;
        this.offset = offset;
    }

    BloomFilterFormatException(org.blockfilter.filters.wire.WireFormatException e) {
        super(e.getMessage(), e);
        this.field = e.field();
        this.offset = e.offset();
    }

    /** The name of the field that is wrong, e.g. {@code "nHashFuncs"}. */
    public String field() {
        return field;
    }

    /** The byte offset in the payload where the field starts. */
    public long offset() {
        return offset;
    }
}
