package org.blockfilter.regtest.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.ScriptBuilder;

/**
 * Builds valid regtest blocks that contain only a coinbase, for competing branches: a reorg that
 * works the same on every node (submit a longer branch) without relying on a node to mine blocks
 * that differ from the ones it just dropped. The coinbase carries the BIP 34 height and a tag, so
 * a branch block never equals a dropped one. Stateless.
 */
public final class BranchBuilder {
    /** Regtest's proof-of-work limit in compact form; regtest never retargets. */
    public static final long REGTEST_BITS = 0x207fffffL;
    /** Regtest halves the subsidy every 150 blocks. */
    public static final int REGTEST_HALVING_INTERVAL = 150;

    private static final long VERSION = 0x20000000L;
    private static final byte[] TAG = "blockfilter-branch".getBytes(StandardCharsets.US_ASCII);

    private BranchBuilder() {}

    /** The block subsidy at {@code height} on regtest. */
    public static Coin subsidy(int height) {
        int halvings = height / REGTEST_HALVING_INTERVAL;
        return halvings >= 64 ? Coin.ZERO : Coin.FIFTY_COINS.shiftRight(halvings);
    }

    /**
     * A solved coinbase-only block at {@code height} on {@code parent}, paying the subsidy to
     * {@code payTo}. {@code time} must be above the median time of the previous 11 blocks.
     * {@code salt} makes blocks of different branches at the same height differ.
     */
    public static Block coinbaseOnly(Sha256Hash parent, int height, Instant time, Address payTo, int salt) {
        byte[] scriptSig = new ScriptBuilder()
                .number(height)
                .data(TAG)
                .number(salt)
                .build()
                .program();
        Transaction coinbase = Transaction.coinbase(scriptSig);
        coinbase.addOutput(subsidy(height), payTo);
        // Regtest's target is about 2^255, so each nonce succeeds with probability ~1/2. Solved
        // here rather than with Block.solve(), which needs a bitcoinj Context.
        for (long nonce = 0; nonce <= 0xffffffffL; nonce++) {
            Block block =
                    new Block(VERSION, parent, merkleRootOfOne(coinbase), time, REGTEST_BITS, nonce, List.of(coinbase));
            if (block.getHash().toBigInteger().compareTo(block.getDifficultyTargetAsInteger()) <= 0) {
                return block;
            }
        }
        throw new IllegalStateException("no nonce solves the block at height " + height);
    }

    private static Sha256Hash merkleRootOfOne(Transaction tx) {
        return tx.getTxId();
    }
}
