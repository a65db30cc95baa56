package org.blockfilter.wallet.spend;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToIntFunction;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.chain.Dust;
import org.blockfilter.wallet.ledger.Utxo;

/**
 * Picks coins the way a user would accept: first a single coin that pays amount + fee with so
 * little left over that a change output would cost more than it is worth (no change, one input);
 * otherwise the largest coins first until amount + fee (with change) is covered, and change below
 * the dust threshold goes to the fee. Fees are {@code ceil(vsize * rate)} with upper-bound sizes.
 * Stateless; thread-safe.
 */
public final class CoinSelector {
    private CoinSelector() {}

    /**
     * @param inputVBytes    each coin's input size when signed (an upper bound, see {@link TxSize})
     * @param recipientScriptLength length of the recipient's output script
     * @param changeScript   the change output's script (its dust limit is Core's, see {@link Dust})
     */
    public static CoinSelection select(
            List<Utxo> coins,
            ToIntFunction<Utxo> inputVBytes,
            Coin amount,
            long satPerVByte,
            int recipientScriptLength,
            byte[] changeScript) {
        if (!amount.isPositive()) {
            throw new IllegalArgumentException("amount must be positive, got " + amount.toPlainString());
        }
        if (satPerVByte < 1 || satPerVByte > 100_000) {
            throw new IllegalArgumentException("fee rate must be 1..100000 sat/vB, got " + satPerVByte);
        }
        int base = TxSize.OVERHEAD_VB + TxSize.outputVBytes(recipientScriptLength);
        int changeOut = TxSize.outputVBytes(changeScript.length);
        long dust = Dust.threshold(changeScript);
        long costOfChange = changeOut * satPerVByte + dust;

        // 1. One coin, no change.
        Utxo best = null;
        for (Utxo u : coins) {
            int vb = base + inputVBytes.applyAsInt(u);
            long need = amount.value + vb * satPerVByte;
            long excess = u.value().value - need;
            if (excess >= 0 && excess < costOfChange && (best == null || u.value().value < best.value().value)) {
                best = u;
            }
        }
        if (best != null) {
            int vb = base + inputVBytes.applyAsInt(best);
            Coin fee = best.value().subtract(amount);
            return new CoinSelection(List.of(best), amount, fee, Coin.ZERO, vb);
        }

        // 2. Largest first, with change.
        List<Utxo> sorted = new ArrayList<>(coins);
        sorted.sort(Comparator.comparing((Utxo u) -> u.value().value).reversed());
        List<Utxo> chosen = new ArrayList<>();
        long total = 0;
        int vb = base + changeOut;
        for (Utxo u : sorted) {
            chosen.add(u);
            total += u.value().value;
            vb += inputVBytes.applyAsInt(u);
            long feeWithChange = vb * satPerVByte;
            long change = total - amount.value - feeWithChange;
            if (change >= dust) {
                return new CoinSelection(chosen, amount, Coin.valueOf(feeWithChange), Coin.valueOf(change), vb);
            }
            long feeNoChange = (vb - changeOut) * satPerVByte;
            if (total - amount.value - feeNoChange >= 0) {
                // Change would be dust: give it to the miner.
                return new CoinSelection(chosen, amount, Coin.valueOf(total - amount.value), Coin.ZERO, vb - changeOut);
            }
        }
        long needed = amount.value + (long) vb * satPerVByte - (long) changeOut * satPerVByte;
        throw new InsufficientFundsException(Coin.valueOf(total), Coin.valueOf(needed));
    }
}
