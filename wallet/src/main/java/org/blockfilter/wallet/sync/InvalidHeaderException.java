package org.blockfilter.wallet.sync;

/** A block header that does not parse, link, meet its target or claim the right target. */
public class InvalidHeaderException extends RuntimeException {
    private final int height;

    public InvalidHeaderException(int height, String message) {
        super("height " + height + ": " + message);
        this.height = height;
    }

    public int height() {
        return height;
    }
}
