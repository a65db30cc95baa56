package org.blockfilter.server.index;

import java.math.BigInteger;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.base.internal.ByteUtils;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;

/**
 * Proves a reorg before the indexer follows it: walks the node's claimed branch back by header
 * from the block the node names, checks that each header hashes to the hash asked for, meets its
 * own proof-of-work target and links to the previous one, until it reaches a block of the indexed
 * best chain (the fork point), and that the branch carries more work than the indexed chain above
 * that point. A claim that fails any of these is a {@link NodeAnswerException}, not a reorg.
 * Stateless; reads the store and asks the source.
 */
final class ReorgProof {
    private static final BigInteger TWO_256 = BigInteger.ONE.shiftLeft(256);

    private ReorgProof() {}

    /**
     * The fork point between the indexed chain and the node's branch ending at {@code claimed}.
     *
     * @param maxDepth the longest branch walked (the undo depth, plus one for the block above the tip)
     * @throws NodeAnswerException if the branch does not link, lacks proof of work, does not reach
     *     the indexed chain within the depth, or carries no more work than the indexed chain
     */
    static ChainTip forkPoint(IndexStore store, BlockSource source, Sha256Hash claimed, int maxDepth) {
        ChainTip tip = store.tip().orElseThrow(() -> new IllegalStateException("nothing indexed"));
        BigInteger branchWork = BigInteger.ZERO;
        int branchLength = 0;
        Sha256Hash at = claimed;
        while (true) {
            Optional<StoredBlock> ours = store.block(at);
            if (ours.isPresent() && store.isActive(ours.get())) {
                ChainTip fork = new ChainTip(ours.get().height(), at);
                BigInteger indexedWork = indexedWorkAbove(store, fork, tip);
                if (branchWork.compareTo(indexedWork) <= 0) {
                    throw new NodeAnswerException("the node claims a reorg from height " + fork.height() + " ("
                            + fork.hash() + ") to " + claimed + " but that branch of " + branchLength
                            + " blocks carries work " + branchWork + ", not more than the indexed chain's "
                            + indexedWork + " up to " + tip.hash() + " at height " + tip.height());
                }
                return fork;
            }
            if (branchLength > maxDepth) {
                throw new NodeAnswerException("the node's branch to " + claimed + " does not reach the indexed chain"
                        + " within " + branchLength + " blocks (undo depth " + maxDepth + ")");
            }
            final Sha256Hash asked = at;
            byte[] header = source.header(asked)
                    .orElseThrow(() -> new NodeAnswerException("the node names block " + asked + " on its branch to "
                            + claimed + " but does not return its header"));
            Sha256Hash hash = hashOf(header);
            if (!hash.equals(asked)) {
                throw new NodeAnswerException(
                        "node returned header " + hash + " when asked for " + asked + " (branch to " + claimed + ")");
            }
            BigInteger target = ByteUtils.decodeCompactBits(bits(header));
            if (target.signum() <= 0 || hash.toBigInteger().compareTo(target) > 0) {
                throw new NodeAnswerException("header " + asked + " on the node's branch to " + claimed
                        + " does not meet its proof-of-work target");
            }
            branchWork = branchWork.add(work(target));
            branchLength++;
            at = prevOf(header);
        }
    }

    private static BigInteger indexedWorkAbove(IndexStore store, ChainTip fork, ChainTip tip) {
        BigInteger sum = BigInteger.ZERO;
        for (int h = fork.height() + 1; h <= tip.height(); h++) {
            int height = h;
            StoredBlock b = store.hashAt(h)
                    .flatMap(store::block)
                    .orElseThrow(
                            () -> new IndexingException("store corrupt: no best-chain record at height " + height));
            sum = sum.add(work(ByteUtils.decodeCompactBits(bits(b.header()))));
        }
        return sum;
    }

    /** Work of a block at this target: 2^256 / (target + 1), as Bitcoin Core's GetBlockProof. */
    static BigInteger work(BigInteger target) {
        return TWO_256.divide(target.add(BigInteger.ONE));
    }

    static Sha256Hash hashOf(byte[] header) {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
    }

    private static long bits(byte[] header) {
        return ByteUtils.readUint32(header, 72);
    }

    private static Sha256Hash prevOf(byte[] header) {
        byte[] prev = new byte[32];
        System.arraycopy(header, 4, prev, 0, 32);
        return Sha256Hash.wrapReversed(prev);
    }
}
