package org.blockfilter.wallet.spend;

import org.bitcoinj.base.Coin;

/** The spendable coins do not cover amount plus fee. Says how much is missing. */
public class InsufficientFundsException extends RuntimeException {
    private final Coin available;
    private final Coin needed;

    public InsufficientFundsException(Coin available, Coin needed) {
        super("insufficient funds: spendable " + available.toPlainString() + " BTC, need " + needed.toPlainString()
                + " BTC (amount + fee), short by " + needed.subtract(available).toPlainString() + " BTC");
        this.available = available;
        this.needed = needed;
    }

    public Coin available() {
        return available;
    }

    public Coin needed() {
        return needed;
    }
}
