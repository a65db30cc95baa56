package org.blockfilter.wallet.sync;

import org.bitcoinj.base.Sha256Hash;

/** A downloaded block that is not the block its verified header commits to. */
public class InvalidBlockException extends RuntimeException {
    private final int height;

    public InvalidBlockException(Sha256Hash hash, int height, String message) {
        super("block " + hash + " at height " + height + ": " + message);
        this.height = height;
    }

    public int height() {
        return height;
    }
}
