package org.blockfilter.wallet.spend;

import java.util.List;
import org.bitcoinj.base.Coin;
import org.blockfilter.wallet.ledger.Utxo;

/**
 * The coins chosen for a payment, the fee they pay and the change (zero when none: change
 * below the dust threshold is folded into the fee). Immutable.
 */
public record CoinSelection(List<Utxo> inputs, Coin amount, Coin fee, Coin change, int estimatedVBytes) {
    public CoinSelection {
        inputs = List.copyOf(inputs);
    }

    /** Whether the payment has a change output (change at or above the dust threshold). */
    public boolean hasChange() {
        return change.isPositive();
    }
}
