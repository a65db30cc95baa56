package org.blockfilter.wallet.ledger;

import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;

/**
 * Where one of the wallet's pending payments stands, derived from the ledger on each call.
 * {@code input} names the input at fault and {@code other} the transaction involved (both null
 * for {@link Kind#VALID}). Immutable.
 */
public record PendingStatus(Sha256Hash txid, Kind kind, TransactionOutPoint input, Sha256Hash other) {
    /** The states of a pending payment. */
    public enum Kind {
        /** Every input is a coin the best chain (or a valid pending payment) holds: it can confirm. */
        VALID,
        /**
         * Another pending payment spends one of the same coins and pays a higher fee (a BIP 125
         * replacement, such as {@code bump}); a node keeps that one, so this one adds and spends nothing.
         */
        REPLACED,
        /**
         * An input's coin is no longer in the wallet (its transaction left the best chain in a
         * reorg): the payment adds nothing, and its other coins stay locked until it is abandoned
         * or the coin comes back.
         */
        INPUTS_GONE,
        /** A confirmed transaction spends one of its inputs: it can never confirm on this chain. */
        CONFLICTED
    }

    static PendingStatus valid(Sha256Hash txid) {
        return new PendingStatus(txid, Kind.VALID, null, null);
    }

    /** Whether the payment's coins are held back from new payments (every state but CONFLICTED). */
    public boolean locksInputs() {
        return kind != Kind.CONFLICTED;
    }

    /** "pending", "replaced", "inputs-gone" or "conflicted". */
    public String label() {
        return switch (kind) {
            case VALID -> "pending";
            case REPLACED -> "replaced";
            case INPUTS_GONE -> "inputs-gone";
            case CONFLICTED -> "conflicted";
        };
    }

    /** One line for {@code balance} and {@code history}. */
    public String describe() {
        return switch (kind) {
            case VALID -> "pending";
            case REPLACED -> "replaced by " + other + " (higher fee)";
            case INPUTS_GONE ->
                "input " + input + " left the chain in a reorg: this payment cannot confirm"
                        + " unless that coin comes back; `abandon " + txid + "` releases its other coins";
            case CONFLICTED ->
                "input " + input + " was spent by confirmed transaction " + other + ": this payment can never confirm";
        };
    }
}
