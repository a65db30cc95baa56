package org.blockfilter.regtest.scenario;

import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;

/**
 * An output on the final best chain that pays a scenario wallet. Immutable.
 *
 * @param spentBy the txid of the best-chain transaction spending it, if any
 */
public record OwnedOutput(
        TransactionOutPoint outpoint,
        OwnedScript script,
        Coin value,
        int height,
        Sha256Hash blockHash,
        boolean coinbase,
        Optional<Sha256Hash> spentBy) {
    public OwnedOutput {
        Objects.requireNonNull(outpoint, "outpoint");
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(blockHash, "blockHash");
        Objects.requireNonNull(spentBy, "spentBy");
    }

    public int wallet() {
        return script.wallet();
    }

    public boolean unspent() {
        return spentBy.isEmpty();
    }
}
