package org.blockfilter.regtest.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.Script;
import org.blockfilter.regtest.scenario.internal.OwnedUtxo;
import org.blockfilter.regtest.scenario.internal.TxSigner;

/**
 * Pays from scenario-owned outputs with the scenario's signer (P2PKH, P2WPKH, P2SH and P2WSH
 * multisig, bare multisig; fee rate {@code TxSigner.FEE_RATE}), for callers outside the runner
 * such as the demo's faucet. Stateless.
 */
public final class ScenarioSigner {
    private ScenarioSigner() {}

    /** A signed payment and the coins it spends. */
    public record Spend(Transaction tx, List<OwnedOutput> inputs) {
        public Spend {
            inputs = List.copyOf(inputs);
        }
    }

    /**
     * Pays {@code value} to {@code to} from {@code coins} (largest first, as few as cover value
     * and fee), with the change to {@code change} unless it is below {@code changeDustLimit} sat
     * (then it goes to the fee).
     *
     * @return empty when the coins do not cover value and fee
     * @throws IllegalArgumentException if a coin is of a kind the scenario does not sign (P2TR)
     */
    public static Optional<Spend> pay(
            List<OwnedOutput> coins, Script to, Coin value, OwnedScript change, long changeDustLimit) {
        List<OwnedOutput> sorted = new ArrayList<>(coins);
        sorted.sort(Comparator.comparing(OwnedOutput::value).reversed());
        List<OwnedOutput> inputs = new ArrayList<>();
        List<OwnedUtxo> utxos = new ArrayList<>();
        List<TxSigner.Out> withChange =
                List.of(new TxSigner.Out(to, value), new TxSigner.Out(change.scriptPubKey(), Coin.ZERO));
        Coin in = Coin.ZERO;
        for (OwnedOutput c : sorted) {
            inputs.add(c);
            utxos.add(new OwnedUtxo(c.outpoint(), c.value(), c.script(), utxos.size(), c.height(), c.coinbase()));
            in = in.add(c.value());
            Coin fee = TxSigner.fee(utxos, withChange);
            if (!in.isLessThan(value.add(fee))) {
                Coin rest = in.subtract(value).subtract(fee);
                List<TxSigner.Out> outs = rest.value >= changeDustLimit
                        ? List.of(withChange.get(0), new TxSigner.Out(change.scriptPubKey(), rest))
                        : List.of(withChange.get(0));
                return Optional.of(new Spend(TxSigner.sign(utxos, outs), inputs));
            }
        }
        return Optional.empty();
    }
}
