package org.blockfilter.regtest.scenario.internal;

import org.bitcoinj.base.Coin;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.regtest.scenario.OwnedScript;

/**
 * A scenario-owned unspent output as the runner's model sees it.
 *
 * @param order       a creation sequence number, so coin selection does not depend on the
 *                    order a node put transactions in a block
 * @param spendableAt the first block height whose transactions may spend it
 */
public record OwnedUtxo(
        TransactionOutPoint outpoint, Coin value, OwnedScript script, long order, int spendableAt, boolean coinbase) {}
