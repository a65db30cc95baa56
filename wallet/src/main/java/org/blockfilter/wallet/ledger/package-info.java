/**
 * The wallet's transactions and what follows from them: unspent outputs, the state of each pending
 * payment, balance and history. Derived state is recomputed from the transactions, so applying
 * blocks is idempotent and order-independent and a reorg only has to drop transactions.
 */
package org.blockfilter.wallet.ledger;
