package org.blockfilter.regtest.wallet;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedOutput;

/**
 * Pays addresses on a regtest node from the mature P2WPKH coins a scenario left unspent, one coin
 * per address (the coin's value less a 20,000 sat fee). Stateless.
 */
public final class WalletFunding {
    public static final Coin FEE = Coin.valueOf(20_000);

    private WalletFunding() {}

    /** Submits one payment per target; the caller mines. Returns the txids in target order. */
    public static List<Sha256Hash> pay(RegtestNode node, GroundTruth truth, List<Address> targets) {
        Iterator<OwnedOutput> coins = truth.outputs().stream()
                .filter(o -> o.unspent()
                        && !o.coinbase()
                        && o.script().kind() == OutputKind.P2WPKH
                        && o.value().isGreaterThan(Coin.valueOf(1_000_000)))
                .iterator();
        List<Sha256Hash> txids = new ArrayList<>();
        for (Address to : targets) {
            if (!coins.hasNext()) {
                throw new IllegalStateException("the scenario left too few coins for " + targets.size() + " payments");
            }
            OwnedOutput coin = coins.next();
            Transaction tx = new Transaction();
            tx.addOutput(coin.value().subtract(FEE), to);
            tx.addSignedInput(
                    coin.outpoint(),
                    coin.script().scriptPubKey(),
                    coin.value(),
                    coin.script().keys().get(0));
            txids.add(node.submitTransaction(tx.serialize()));
        }
        return txids;
    }
}
