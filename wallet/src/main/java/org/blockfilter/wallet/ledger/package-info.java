/**
 * The wallet's transactions and what follows from them: unspent outputs, balance and history.
 * Derived state (UTXOs, balance) is recomputed from the transactions, so applying blocks is
 * idempotent and order-independent and a reorg only has to drop transactions.
 */
package org.blockfilter.wallet.ledger;
