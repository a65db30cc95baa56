package org.blockfilter.wallet.spend;

import org.bitcoinj.base.Coin;

/** The spendable coins do not cover amount plus fee. Says how much is missing. */
public class InsufficientFundsException extends RuntimeException {
    private final Coin available;
    private final Coin needed;

    /** Spendable {@code available} is less than {@code needed} (the amount plus the fee). */
    public InsufficientFundsException(Coin available, Coin needed) {
        super("insufficient funds: spendable " + available.toPlainString() + " BTC, need " + needed.toPlainString()
                + " BTC (amount + fee), short by " + needed.subtract(available).toPlainString() + " BTC");
        this.available = available;
        this.needed = needed;
    }

    /** What the wallet could spend. */
    public Coin available() {
        return available;
    }

    /** What the payment needed: its amount plus its fee. */
    public Coin needed() {
        return needed;
    }
}
