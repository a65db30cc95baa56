package org.blockfilter.wallet.keys;

/** A mnemonic, extended key or address that does not parse or does not fit the network. */
public class KeyFormatException extends IllegalArgumentException {
    /** A key, mnemonic or address that is malformed; the message says what, {@code cause} is the parser's error. */
    public KeyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
