package org.blockfilter.wallet.ledger;

import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;

/**
 * One transaction as the user sees it: net effect on the balance (received minus spent, negative
 * for a payment) and the fee when every input is the wallet's own (else null). {@code pending} is
 * null for a confirmed transaction; a pending payment that cannot confirm as it stands (replaced,
 * inputs gone, conflicted) counts zero received, zero sent and no fee. Immutable.
 */
public record HistoryEntry(
        Sha256Hash txid, int height, Coin received, Coin sent, Coin net, Coin fee, PendingStatus pending) {
    /** "confirmed", "pending", "replaced", "inputs-gone" or "conflicted". */
    public String status() {
        return pending == null ? "confirmed" : pending.label();
    }
}
