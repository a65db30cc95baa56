package org.blockfilter.wallet.store;

/** The wallet file is sealed whole ({@link Sealing#ALL}) and was opened without a passphrase. */
public class PassphraseRequiredException extends RuntimeException {
    /** The file is sealed whole and no passphrase was given; the message names the file. */
    public PassphraseRequiredException(String message) {
        super(message);
    }
}
