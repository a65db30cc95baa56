package org.blockfilter.server.p2p.internal.wire;

/**
 * Bytes from a source do not decode: names the field, the offending value (when there is one)
 * and the byte offset. Transports turn it into a {@code SourceException} naming the source.
 */
public final class MalformedDataException extends RuntimeException {
    private final String field;
    private final int offset;

    public MalformedDataException(String field, int offset, String message) {
        super(field + " at offset " + offset + ": " + message);
        this.field = field;
        this.offset = offset;
    }

    public String field() {
        return field;
    }

    public int offset() {
        return offset;
    }
}
