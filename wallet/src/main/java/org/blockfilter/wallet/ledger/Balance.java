package org.blockfilter.wallet.ledger;

import java.util.List;
import org.bitcoinj.base.Coin;

/**
 * The wallet's balance, split the way a payment sees it. {@code spendable} is exactly the sum of
 * the coins a new payment may use; {@code lockedByPending} the confirmed coins that pending
 * payments spend; {@code immature} coinbases short of 100 confirmations; {@code unconfirmed} the
 * wallet's outputs of pending payments that can confirm (their change); {@code stuck} the pending
 * payments that cannot confirm as they stand (they add nothing). Immutable.
 */
public record Balance(
        Coin spendable, Coin lockedByPending, Coin immature, Coin unconfirmed, List<PendingStatus> stuck) {
    public Balance {
        stuck = List.copyOf(stuck);
    }

    /** Every coin the wallet holds on the best chain or will hold when its pending payments confirm. */
    public Coin total() {
        return spendable.add(immature).add(unconfirmed);
    }
}
