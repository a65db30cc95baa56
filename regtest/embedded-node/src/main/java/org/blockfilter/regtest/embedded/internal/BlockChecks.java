package org.blockfilter.regtest.embedded.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.base.VarInt;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.core.VerificationException;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * The checks a block must pass before it is stored: header rules that need only the parent
 * (version, difficulty bits, proof of work, median-time-past, not too far in the future) and
 * the rules that need only the block (coinbase shape, BIP 34 height, merkle root, witness
 * commitment, weight, transaction sanity). UTXO rules come later, when the block is connected.
 * Failures throw {@link RejectedException} with Bitcoin Core's reject reason. Stateless.
 */
final class BlockChecks {
    private BlockChecks() {}

    static void checkHeader(Block block, long medianTimePast, long nowSeconds) {
        if (block.getVersion() < Consensus.MIN_BLOCK_VERSION) {
            throw reject(String.format(Locale.ROOT, "bad-version(0x%08x)", block.getVersion()), null);
        }
        if (block.getDifficultyTarget() != Consensus.POW_LIMIT_BITS) {
            throw reject("bad-diffbits", "incorrect proof of work");
        }
        if (block.getHash().toBigInteger().compareTo(block.getDifficultyTargetAsInteger()) > 0) {
            throw reject("high-hash", "proof of work failed");
        }
        if (block.getTimeSeconds() <= medianTimePast) {
            throw reject("time-too-old", "block's timestamp is too early");
        }
        if (block.getTimeSeconds() > nowSeconds + Consensus.MAX_FUTURE_BLOCK_TIME_SECONDS) {
            throw reject("time-too-new", "block timestamp too far in the future");
        }
    }

    static void checkBody(Block block, int height) {
        List<Transaction> txs = block.getTransactions();
        if (txs == null || txs.isEmpty()) {
            throw reject("bad-blk-length", "size limits failed");
        }
        List<Sha256Hash> txids = new ArrayList<>(txs.size());
        Set<Sha256Hash> unique = new HashSet<>();
        for (Transaction tx : txs) {
            txids.add(tx.getTxId());
            if (!unique.add(tx.getTxId())) {
                throw reject("bad-txns-duplicate", "duplicate transaction");
            }
        }
        if (!Consensus.merkleRoot(txids).equals(block.getMerkleRoot())) {
            throw reject("bad-txnmrklroot", "hashMerkleRoot mismatch");
        }
        Transaction coinbase = txs.get(0);
        if (!coinbase.isCoinBase()) {
            throw reject("bad-cb-missing", "first tx is not coinbase");
        }
        for (int i = 1; i < txs.size(); i++) {
            if (txs.get(i).isCoinBase()) {
                throw reject("bad-cb-multiple", "more than one coinbase");
            }
        }
        for (Transaction tx : txs) {
            checkTransactionSanity(tx);
        }
        try {
            coinbase.checkCoinBaseHeight(height);
        } catch (VerificationException e) {
            throw reject("bad-cb-height", "block height mismatch in coinbase");
        }
        checkWitnessCommitment(block, coinbase);
        if (weight(block) > Consensus.MAX_BLOCK_WEIGHT) {
            throw reject("bad-blk-weight", "weight limit failed");
        }
    }

    /** Context-free transaction rules (Core's CheckTransaction), for blocks and the mempool alike. */
    static void checkTransactionSanity(Transaction tx) {
        if (tx.getInputs().isEmpty()) {
            throw reject("bad-txns-vin-empty", null);
        }
        if (tx.getOutputs().isEmpty()) {
            throw reject("bad-txns-vout-empty", null);
        }
        try {
            Transaction.verify(Chain.PARAMS.network(), tx);
        } catch (VerificationException.DuplicatedOutPoint e) {
            throw reject("bad-txns-inputs-duplicate", null);
        } catch (VerificationException.NegativeValueOutput e) {
            throw reject("bad-txns-vout-negative", null);
        } catch (VerificationException.ExcessiveValue e) {
            throw reject("bad-txns-txouttotal-toolarge", null);
        } catch (VerificationException.CoinbaseScriptSizeOutOfRange e) {
            throw reject("bad-cb-length", null);
        } catch (VerificationException.UnexpectedCoinbaseInput e) {
            throw reject("bad-txns-prevout-null", null);
        } catch (VerificationException.LargerThanMaxBlockSize e) {
            throw reject("bad-txns-oversize", null);
        } catch (VerificationException e) {
            throw reject("bad-txns", e.getMessage());
        }
    }

    private static void checkWitnessCommitment(Block block, Transaction coinbase) {
        Sha256Hash commitment = coinbase.findWitnessCommitment();
        if (commitment == null) {
            for (Transaction tx : block.getTransactions()) {
                if (tx.hasWitnesses()) {
                    throw reject("unexpected-witness", "unexpected witness data found");
                }
            }
            return;
        }
        TransactionWitness witness = coinbase.getInput(0).getWitness();
        if (witness.getPushCount() != 1 || witness.getPush(0).length != 32) {
            throw reject("bad-witness-nonce-size", "invalid witness reserved value size");
        }
        Sha256Hash expected = Sha256Hash.twiceOf(witnessRoot(block).serialize(), witness.getPush(0));
        if (!expected.equals(commitment)) {
            throw reject("bad-witness-merkle-match", "witness merkle commitment mismatch");
        }
    }

    /** BIP 141 witness root: merkle root of wtxids with the coinbase's taken as zero. */
    static Sha256Hash witnessRoot(Block block) {
        List<Transaction> txs = block.getTransactions();
        List<Sha256Hash> leaves = new ArrayList<>(txs.size());
        leaves.add(Sha256Hash.ZERO_HASH);
        for (int i = 1; i < txs.size(); i++) {
            leaves.add(txs.get(i).getWTxId());
        }
        return Consensus.merkleRoot(leaves);
    }

    /** BIP 141 block weight: header and count at 4 units a byte, plus every transaction's weight. */
    static long weight(Block block) {
        long weight = (Block.HEADER_SIZE + VarInt.sizeOf(block.getTransactions().size())) * 4L;
        for (Transaction tx : block.getTransactions()) {
            weight += tx.getWeight();
        }
        return weight;
    }

    private static RejectedException reject(String reason, String detail) {
        return new RejectedException(reason, detail, RejectedException.VERIFY_REJECTED);
    }
}
