package org.blockfilter.regtest.scenario;

import java.util.List;
import org.bitcoinj.crypto.ECKey;

/**
 * One wallet of the population: its keys (derived from the seed) and every script it received
 * to, in the order it first used them. Wallet 0 is the miner. Immutable.
 */
public record ScenarioWallet(int index, String name, List<ECKey> keys, List<OwnedScript> scripts) {
    public ScenarioWallet {
        keys = List.copyOf(keys);
        scripts = List.copyOf(scripts);
    }
}
