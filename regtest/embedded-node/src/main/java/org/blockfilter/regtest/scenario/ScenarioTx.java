package org.blockfilter.regtest.scenario;

import java.util.Arrays;
import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;

/**
 * A transaction the scenario created, where it ended up on the final best chain. Immutable: the
 * raw bytes are copied in and out.
 *
 * @param fromWallet the wallet that signed it
 * @param fanOut     true for the miner's distribution of a coinbase to many wallets
 */
public record ScenarioTx(
        Sha256Hash txid, byte[] raw, int fromWallet, boolean fanOut, int height, Sha256Hash blockHash) {
    public ScenarioTx {
        Objects.requireNonNull(txid, "txid");
        raw = raw.clone();
        Objects.requireNonNull(blockHash, "blockHash");
    }

    @Override
    public byte[] raw() {
        return raw.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScenarioTx t
                && txid.equals(t.txid)
                && Arrays.equals(raw, t.raw)
                && fromWallet == t.fromWallet
                && fanOut == t.fanOut
                && height == t.height
                && blockHash.equals(t.blockHash);
    }

    @Override
    public int hashCode() {
        return txid.hashCode() * 31 + height;
    }

    @Override
    public String toString() {
        return "ScenarioTx[" + txid + " from wallet " + fromWallet + (fanOut ? " fan-out" : "") + " at " + height + "]";
    }
}
