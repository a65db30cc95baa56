package org.blockfilter.wallet.store;

/** The wallet file is missing, unreadable, or not a wallet file of a version we understand. */
public class WalletFileException extends RuntimeException {
    public WalletFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
