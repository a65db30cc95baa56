package org.blockfilter.wallet.sync;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.core.VerificationException;

/**
 * Checks a downloaded block against the header the wallet verified: the block hashes to it, its
 * transactions hash to the merkle root (bitcoinj's context-free checks, which also reject an
 * empty block, a missing coinbase and oversize blocks), and, when any transaction carries a
 * witness, the coinbase commits to the witness merkle root (BIP 141). Stateless; thread-safe.
 */
public final class BlockCheck {
    private BlockCheck() {}

    /** The parsed block; {@link InvalidBlockException} when it is not the block with {@code expectedHash}. */
    public static Block verify(NetworkParameters params, byte[] raw, Sha256Hash expectedHash, int height) {
        Block block;
        try {
            ByteBuffer buf = ByteBuffer.wrap(raw);
            block = Block.read(buf);
            if (buf.hasRemaining()) {
                throw new InvalidBlockException(
                        expectedHash, height, buf.remaining() + " trailing bytes after the block");
            }
        } catch (ProtocolException | BufferUnderflowException | IllegalArgumentException e) {
            throw new InvalidBlockException(expectedHash, height, "block does not parse: " + e.getMessage());
        }
        if (!block.getHash().equals(expectedHash)) {
            throw new InvalidBlockException(expectedHash, height, "block header hashes to " + block.getHash());
        }
        if (!block.hasTransactions()) {
            throw new InvalidBlockException(expectedHash, height, "block has no transactions");
        }
        try {
            Block.verifyTransactions(params, block, height, EnumSet.noneOf(Block.VerifyFlag.class));
        } catch (VerificationException e) {
            throw new InvalidBlockException(
                    expectedHash, height, "transactions do not match the header: " + e.getMessage());
        }
        checkWitnessCommitment(block, expectedHash, height);
        return block;
    }

    private static void checkWitnessCommitment(Block block, Sha256Hash hash, int height) {
        boolean anyWitness = block.getTransactions().stream().anyMatch(Transaction::hasWitnesses);
        Transaction coinbase = block.getTransactions().get(0);
        Sha256Hash commitment = coinbase.findWitnessCommitment();
        if (!anyWitness) {
            return;
        }
        if (commitment == null) {
            throw new InvalidBlockException(
                    hash, height, "transactions carry witnesses but the coinbase has no witness commitment");
        }
        TransactionWitness w = coinbase.getInput(0).getWitness();
        if (w.getPushCount() != 1 || w.getPush(0).length != 32) {
            throw new InvalidBlockException(hash, height, "coinbase witness reserved value missing");
        }
        Sha256Hash expected = Sha256Hash.twiceOf(block.getWitnessRoot().serialize(), w.getPush(0));
        if (!expected.equals(commitment)) {
            throw new InvalidBlockException(hash, height, "witness commitment does not match the witnesses");
        }
    }
}
