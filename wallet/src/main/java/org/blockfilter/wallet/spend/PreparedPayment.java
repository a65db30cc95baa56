package org.blockfilter.wallet.spend;

import java.util.HexFormat;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;

/**
 * A signed payment not yet broadcast: what the user confirms (recipient, amount, fee, fee rate,
 * change) and the raw transaction. Immutable; {@code changeAddress} is null when there is no change.
 */
public record PreparedPayment(
        Sha256Hash txid,
        Address recipient,
        Coin amount,
        Coin fee,
        long satPerVByte,
        int vsize,
        Coin change,
        Address changeAddress,
        int inputs,
        byte[] raw) {
    public PreparedPayment {
        raw = raw.clone();
    }

    @Override
    public byte[] raw() {
        return raw.clone();
    }

    /** The signed transaction in hex, as {@code sendrawtransaction} takes it. */
    public String rawHex() {
        return HexFormat.of().formatHex(raw);
    }

    /** The fee actually paid per virtual byte of the signed transaction. */
    public double effectiveSatPerVByte() {
        return (double) fee.value / vsize;
    }

    /** What the user confirms: recipient and amount, fee, size, rate, inputs and change. */
    public String summary() {
        return "pay " + amount.toPlainString() + " BTC to " + recipient + "\nfee " + fee.toPlainString() + " BTC ("
                + vsize + " vB, " + String.format(java.util.Locale.ROOT, "%.2f", effectiveSatPerVByte()) + " sat/vB), "
                + inputs + " input(s), change "
                + (changeAddress == null
                        ? "none (dust folded into fee)"
                        : change.toPlainString() + " BTC to " + changeAddress);
    }
}
