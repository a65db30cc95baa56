package org.blockfilter.wallet.store;

/** The wallet file is sealed whole ({@link Sealing#ALL}) and was opened without a passphrase. */
public class PassphraseRequiredException extends RuntimeException {
    public PassphraseRequiredException(String message) {
        super(message);
    }
}
