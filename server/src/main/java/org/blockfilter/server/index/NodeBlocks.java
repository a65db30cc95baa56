package org.blockfilter.server.index;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;

/**
 * Checks a block the node returned before anything of it is used: it parses, hashes to the hash
 * asked for, and its transactions hash to the header's merkle root (so a block with the right
 * header but other, missing or cut transactions is refused). Stateless.
 */
final class NodeBlocks {
    private NodeBlocks() {}

    /**
     * @throws NodeAnswerException naming the block asked for and what came back
     */
    static Block parse(byte[] raw, Sha256Hash expected, int height) {
        Block block;
        try {
            block = Block.read(ByteBuffer.wrap(raw));
        } catch (ProtocolException | BufferUnderflowException | IllegalArgumentException e) {
            throw new NodeAnswerException(
                    "block " + expected + " at height " + height + " does not parse (" + raw.length
                            + " bytes from the node): " + e,
                    e);
        }
        if (!block.getHash().equals(expected)) {
            throw new NodeAnswerException(
                    "node returned block " + block.getHash() + " when asked for " + expected + " at height " + height);
        }
        Sha256Hash merkle = merkleRoot(block.getTransactions());
        if (!merkle.equals(block.getMerkleRoot())) {
            throw new NodeAnswerException("node returned block " + expected + " at height " + height + " with "
                    + block.getTransactions().size() + " transactions whose merkle root is " + merkle
                    + ", not the header's " + block.getMerkleRoot());
        }
        return block;
    }

    /** The merkle root of the transactions' txids, as the header commits to it (BIP 141: without witnesses). */
    static Sha256Hash merkleRoot(List<Transaction> txs) {
        if (txs.isEmpty()) {
            return Sha256Hash.ZERO_HASH;
        }
        List<byte[]> level = new ArrayList<>(txs.size());
        for (Transaction tx : txs) {
            level.add(tx.getTxId().serialize());
        }
        while (level.size() > 1) {
            List<byte[]> next = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i < level.size(); i += 2) {
                byte[] left = level.get(i);
                byte[] right = level.get(Math.min(i + 1, level.size() - 1));
                byte[] pair = new byte[64];
                System.arraycopy(left, 0, pair, 0, 32);
                System.arraycopy(right, 0, pair, 32, 32);
                next.add(Sha256Hash.hashTwice(pair));
            }
            level = next;
        }
        return Sha256Hash.wrapReversed(level.get(0));
    }
}
