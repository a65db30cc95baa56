package org.blockfilter.wallet.ledger;

import org.bitcoinj.base.Coin;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.wallet.keys.OutputScript;

/** An unspent output the wallet owns; {@code height} is -1 while its transaction is pending. Immutable. */
public record Utxo(TransactionOutPoint outpoint, Coin value, OutputScript script, int height) {}
