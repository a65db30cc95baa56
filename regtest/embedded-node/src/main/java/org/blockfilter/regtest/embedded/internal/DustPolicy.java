package org.blockfilter.regtest.embedded.internal;

import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * Bitcoin Core's dust rule from its relay policy ({@code src/policy/policy.cpp},
 * {@code GetDustThreshold} and {@code IsDust}; {@code DUST_RELAY_TX_FEE} = 3000 sat/kvB in
 * {@code src/policy/policy.h}): an output is dust when spending it would cost more than it is
 * worth at the dust relay fee. A typical non-witness output needs a 148-byte input to spend, a
 * witness output 67 vbytes ({@code 32 + 4 + 1 + 107 / 4 + 4}); unspendable outputs (OP_RETURN)
 * are never dust. So P2PKH is dust below 546 sat, P2WPKH below 294, P2TR below 330. Core refuses
 * a transaction with a dust output from its mempool with the reason {@code dust}; blocks may
 * still contain them. Stateless.
 */
public final class DustPolicy {
    /** Core's {@code DUST_RELAY_TX_FEE}, satoshis per 1,000 virtual bytes. */
    public static final long DUST_RELAY_FEE_PER_KVB = 3_000;

    /** Core's {@code MAX_SCRIPT_SIZE}: a longer script is unspendable. */
    private static final int MAX_SCRIPT_SIZE = 10_000;

    private static final int OP_RETURN = 0x6a;

    private DustPolicy() {}

    /** The smallest value an output with this script may carry without being dust (0 if unspendable). */
    public static long threshold(byte[] scriptPubKey) {
        if (scriptPubKey.length > 0 && (scriptPubKey[0] & 0xff) == OP_RETURN || scriptPubKey.length > MAX_SCRIPT_SIZE) {
            return 0;
        }
        long size = 8 + compactSizeLength(scriptPubKey.length) + scriptPubKey.length;
        size += isWitnessProgram(scriptPubKey) ? 32 + 4 + 1 + 107 / 4 + 4 : 32 + 4 + 1 + 107 + 4;
        // CFeeRate::GetFee: fee = rate * size / 1000, truncated (never 0 for a positive rate and size).
        return DUST_RELAY_FEE_PER_KVB * size / 1000;
    }

    /**
     * @throws RejectedException {@code dust} (RPC -26, as Core's {@code sendrawtransaction}) if an output is dust
     */
    public static void check(Transaction tx) {
        for (int i = 0; i < tx.getOutputs().size(); i++) {
            TransactionOutput out = tx.getOutput(i);
            long min = threshold(out.getScriptBytes());
            if (out.getValue().value < min) {
                throw new RejectedException(
                        "dust",
                        "output " + i + " pays " + out.getValue().value + " sat, below the dust limit of " + min
                                + " sat for its script",
                        RejectedException.VERIFY_REJECTED);
            }
        }
    }

    /** Core's {@code CScript::IsWitnessProgram}: a version opcode (OP_0, OP_1..OP_16) and one push of 2..40 bytes. */
    static boolean isWitnessProgram(byte[] s) {
        if (s.length < 4 || s.length > 42) {
            return false;
        }
        int version = s[0] & 0xff;
        if (version != 0 && (version < 0x51 || version > 0x60)) {
            return false;
        }
        return (s[1] & 0xff) + 2 == s.length;
    }

    private static int compactSizeLength(long n) {
        return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
    }
}
