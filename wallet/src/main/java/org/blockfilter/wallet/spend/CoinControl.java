package org.blockfilter.wallet.spend;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.wallet.ledger.Utxo;

/**
 * Which coins a payment may spend: only the {@code from} coins (when any are given), never the
 * {@code excluded} ones. Immutable.
 */
public record CoinControl(Set<TransactionOutPoint> from, Set<TransactionOutPoint> excluded) {
    /** Any spendable coin. */
    public static final CoinControl ANY = new CoinControl(Set.of(), Set.of());

    public CoinControl {
        from = Set.copyOf(from);
        excluded = Set.copyOf(excluded);
        Set<TransactionOutPoint> both = new LinkedHashSet<>(from);
        both.retainAll(excluded);
        if (!both.isEmpty()) {
            throw new IllegalArgumentException(
                    "coin " + name(both.iterator().next()) + " is both --from and --exclude");
        }
    }

    /**
     * The coins of {@code spendable} this control allows. A {@code from} coin that is not among
     * them is an error naming it and why ({@code all}: every coin the wallet holds, pending ones included).
     */
    List<Utxo> apply(List<Utxo> spendable, List<Utxo> all) {
        Set<TransactionOutPoint> ok = spendable.stream().map(Utxo::outpoint).collect(Collectors.toSet());
        for (TransactionOutPoint o : from) {
            if (!ok.contains(o)) {
                boolean held = all.stream().anyMatch(u -> u.outpoint().equals(o));
                throw new IllegalArgumentException("--from " + name(o) + ": "
                        + (held
                                ? "that coin is not spendable now (unconfirmed, immature, or held by a pending payment)"
                                : "the wallet holds no such unspent coin"));
            }
        }
        return spendable.stream()
                .filter(u -> from.isEmpty() || from.contains(u.outpoint()))
                .filter(u -> !excluded.contains(u.outpoint()))
                .toList();
    }

    static String name(TransactionOutPoint o) {
        return o.hash() + ":" + o.index();
    }
}
