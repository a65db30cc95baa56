package org.blockfilter.wallet.store;

/** The passphrase does not open the wallet's sealed secret (or the ciphertext was altered). */
public class WrongPassphraseException extends RuntimeException {
    /** The passphrase was wrong; the message says which secret or file it did not open. */
    public WrongPassphraseException(String message) {
        super(message);
    }
}
