package org.blockfilter.wallet.ledger;

import org.bitcoinj.base.Coin;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * An unspent output the wallet owns; {@code height} is -1 while its transaction is pending;
 * {@code coinbase} when it is a block reward, spendable only after {@link #COINBASE_MATURITY}
 * confirmations. Immutable.
 */
public record Utxo(TransactionOutPoint outpoint, Coin value, OutputScript script, int height, boolean coinbase) {
    /** Confirmations a coinbase output needs before it can be spent (Bitcoin Core's COINBASE_MATURITY). */
    public static final int COINBASE_MATURITY = 100;

    /** An output that is not a coinbase's. */
    public Utxo(TransactionOutPoint outpoint, Coin value, OutputScript script, int height) {
        this(outpoint, value, script, height, false);
    }

    /**
     * False for a coinbase output with fewer than {@link #COINBASE_MATURITY} confirmations when
     * the best chain ends at {@code tipHeight}: a transaction spending it could only be mined at
     * height {@code height + 100} or later.
     */
    public boolean matureAt(int tipHeight) {
        return !coinbase || (height >= 0 && tipHeight + 1 - height >= COINBASE_MATURITY);
    }
}
