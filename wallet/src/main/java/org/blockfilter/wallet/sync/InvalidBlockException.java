package org.blockfilter.wallet.sync;

import org.bitcoinj.base.Sha256Hash;

/** A downloaded block that is not the block its verified header commits to. */
public class InvalidBlockException extends RuntimeException {
    private final int height;

    /** The block {@code hash} at {@code height} does not match its header; the message says how. */
    public InvalidBlockException(Sha256Hash hash, int height, String message) {
        super("block " + hash + " at height " + height + ": " + message);
        this.height = height;
    }

    /** The height of the block that did not match. */
    public int height() {
        return height;
    }
}
