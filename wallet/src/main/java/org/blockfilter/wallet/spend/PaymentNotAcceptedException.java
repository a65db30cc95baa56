package org.blockfilter.wallet.spend;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.source.NotAcceptedException;

/**
 * No source confirmed that its node accepted a payment. Nothing was recorded: the payment's
 * coins stay spendable. The message names each source and what it said.
 */
public final class PaymentNotAcceptedException extends NotAcceptedException {
    private final Sha256Hash txid;

    /**
     * The payment {@code txid} was refused or not taken by every source; {@code reasons} holds each source's answer.
     */
    public PaymentNotAcceptedException(Sha256Hash txid, List<String> reasons) {
        super(
                "broadcast",
                "payment " + txid + " was not accepted by any source ("
                        + (reasons.isEmpty() ? "no source to send it to" : String.join("; ", reasons))
                        + "); nothing was recorded and its coins stay spendable");
        this.txid = txid;
    }

    /** The payment's txid. */
    public Sha256Hash txid() {
        return txid;
    }
}
