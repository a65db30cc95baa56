package org.blockfilter.regtest.embedded.internal;

import java.math.BigInteger;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;

/**
 * Regtest consensus constants and small pure functions shared by mining and validation, as
 * Bitcoin Core's {@code chainparams.cpp} (regtest) and btcd's {@code RegressionNetParams} define
 * them. Stateless.
 */
public final class Consensus {
    /** Regtest proof-of-work limit in compact form; regtest never retargets. */
    public static final long POW_LIMIT_BITS = 0x207fffffL;
    /** Block subsidy halves every 150 blocks on regtest. */
    public static final int HALVING_INTERVAL = 150;
    /** A coinbase output can be spent only by a block 100 blocks deeper (BIP 30's companion rule). */
    public static final int COINBASE_MATURITY = 100;

    public static final Coin INITIAL_SUBSIDY = Coin.COIN.multiply(50);
    /** BIP 141 block weight limit. */
    public static final int MAX_BLOCK_WEIGHT = 4_000_000;
    /** Blocks may be at most two hours ahead of the node's clock. */
    public static final long MAX_FUTURE_BLOCK_TIME_SECONDS = 2 * 60 * 60;
    /** Number of previous blocks whose median time a new block must exceed (BIP 113). */
    public static final int MEDIAN_TIME_SPAN = 11;
    /** Version bits top bits with no deployment signalled, as Bitcoin Core mines. */
    public static final long MINED_BLOCK_VERSION = 0x20000000L;
    /** BIP 34, 66 and 65 are active from height 1 on regtest, so blocks need version 4 or more. */
    public static final long MIN_BLOCK_VERSION = 4;

    private Consensus() {}

    /** Coinbase subsidy at {@code height}: 50 BTC halving every {@link #HALVING_INTERVAL} blocks. */
    public static Coin subsidy(int height) {
        int halvings = height / HALVING_INTERVAL;
        if (halvings >= 64) {
            return Coin.ZERO;
        }
        return Coin.valueOf(INITIAL_SUBSIDY.value >> halvings);
    }

    /** Work a block with these compact bits represents: 2^256 / (target + 1). */
    public static BigInteger work(long bits) {
        BigInteger target = org.bitcoinj.base.internal.ByteUtils.decodeCompactBits(bits);
        return BigInteger.ONE.shiftLeft(256).divide(target.add(BigInteger.ONE));
    }

    /**
     * Merkle root over txids (or wtxids) in display order, as Bitcoin Core computes it: the last
     * hash of an odd level is paired with itself. Empty input gives the zero hash.
     */
    public static Sha256Hash merkleRoot(List<Sha256Hash> leaves) {
        if (leaves.isEmpty()) {
            return Sha256Hash.ZERO_HASH;
        }
        byte[][] level = new byte[leaves.size()][];
        for (int i = 0; i < level.length; i++) {
            level[i] = leaves.get(i).serialize();
        }
        int size = level.length;
        while (size > 1) {
            int next = 0;
            for (int left = 0; left < size; left += 2) {
                int right = Math.min(left + 1, size - 1);
                level[next++] = Sha256Hash.hashTwice(level[left], level[right]);
            }
            size = next;
        }
        return Sha256Hash.wrapReversed(level[0]);
    }
}
