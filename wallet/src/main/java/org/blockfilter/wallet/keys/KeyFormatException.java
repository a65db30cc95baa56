package org.blockfilter.wallet.keys;

/** A mnemonic, extended key or address that does not parse or does not fit the network. */
public class KeyFormatException extends IllegalArgumentException {
    public KeyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
