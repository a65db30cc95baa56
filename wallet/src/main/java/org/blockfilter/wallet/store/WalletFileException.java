package org.blockfilter.wallet.store;

/** The wallet file is missing, unreadable, or not a wallet file of a version we understand. */
public class WalletFileException extends RuntimeException {
    /**
     * The file could not be read or written; the message names it and says why, {@code cause} is the I/O or parse
     * error.
     */
    public WalletFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
