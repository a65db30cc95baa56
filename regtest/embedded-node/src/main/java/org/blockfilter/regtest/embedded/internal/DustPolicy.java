package org.blockfilter.regtest.embedded.internal;

import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.chain.Dust;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * The mempool's dust check: Bitcoin Core's relay rule ({@link Dust}, shared with the wallet)
 * applied to every output, refused as Core's {@code sendrawtransaction} refuses it. Blocks may
 * still contain dust. Stateless.
 */
public final class DustPolicy {
    private DustPolicy() {}

    /**
     * @throws RejectedException {@code dust} (RPC -26, as Core's {@code sendrawtransaction}) if an output is dust
     */
    public static void check(Transaction tx) {
        for (int i = 0; i < tx.getOutputs().size(); i++) {
            TransactionOutput out = tx.getOutput(i);
            long min = Dust.threshold(out.getScriptBytes());
            if (out.getValue().value < min) {
                throw new RejectedException(
                        "dust",
                        "output " + i + " pays " + out.getValue().value + " sat, below the dust limit of " + min
                                + " sat for its script",
                        RejectedException.VERIFY_REJECTED);
            }
        }
    }
}
