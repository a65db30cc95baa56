package org.blockfilter.wallet.store;

/** The passphrase does not open the wallet's sealed secret (or the ciphertext was altered). */
public class WrongPassphraseException extends RuntimeException {
    public WrongPassphraseException(String message) {
        super(message);
    }
}
