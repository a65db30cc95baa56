package org.blockfilter.regtest.scenario;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;

/**
 * A reorg the scenario forced: the blocks above {@code forkHeight} that left the best chain and
 * the branch that replaced them, in height order. Immutable.
 */
public record ReorgRecord(int forkHeight, List<Sha256Hash> dropped, List<Sha256Hash> branch) {
    public ReorgRecord {
        dropped = List.copyOf(dropped);
        branch = List.copyOf(branch);
    }
}
