package org.blockfilter.wallet.sync;

/** A block header that does not parse, link, meet its target or claim the right target. */
public class InvalidHeaderException extends RuntimeException {
    private final int height;

    /** The header at {@code height} is invalid; the message says which rule it breaks. */
    public InvalidHeaderException(int height, String message) {
        super("height " + height + ": " + message);
        this.height = height;
    }

    /** The height of the invalid header. */
    public int height() {
        return height;
    }
}
