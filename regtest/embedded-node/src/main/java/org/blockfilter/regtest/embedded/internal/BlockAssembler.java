package org.blockfilter.regtest.embedded.internal;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.base.internal.ByteUtils;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.core.TransactionWitness;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.script.ScriptOpCodes;

/** Builds and solves blocks for the embedded node's miner. Stateless. */
final class BlockAssembler {
    private BlockAssembler() {}

    /**
     * Builds and solves a block on {@code parent} as Bitcoin Core's miner does: BIP 34 height and
     * an extra nonce in the coinbase, subsidy plus fees, a witness commitment with a zero
     * reserved value, and the given time and extra nonce.
     */
    static Block assemble(
            BlockEntry parent, byte[] payoutScript, List<Mempool.Entry> entries, long time, long extraNonce) {
        int height = parent.height() + 1;
        long fees = 0;
        List<Transaction> txs = new ArrayList<>();
        txs.add(null); // coinbase placeholder; the witness root takes it as zero anyway
        for (Mempool.Entry e : entries) {
            fees += e.fee();
            txs.add(e.tx());
        }
        Transaction coinbase = new Transaction();
        byte[] scriptSig =
                new ScriptBuilder().number(height).number(extraNonce).build().program();
        coinbase.addInput(
                TransactionInput.coinbaseInput(coinbase, scriptSig).withWitness(TransactionWitness.of(new byte[32])));
        coinbase.addOutput(
                new TransactionOutput(coinbase, Consensus.subsidy(height).add(Coin.valueOf(fees)), payoutScript));
        txs.set(0, coinbase);
        Block draft = new Block(
                Consensus.MINED_BLOCK_VERSION,
                parent.hash(),
                Sha256Hash.ZERO_HASH,
                Instant.ofEpochSecond(time),
                Consensus.POW_LIMIT_BITS,
                0,
                txs);
        Sha256Hash commitment =
                Sha256Hash.twiceOf(BlockChecks.witnessRoot(draft).serialize(), new byte[32]);
        byte[] commitmentScript = new byte[38];
        commitmentScript[0] = (byte) ScriptOpCodes.OP_RETURN;
        commitmentScript[1] = 36;
        commitmentScript[2] = (byte) 0xaa;
        commitmentScript[3] = (byte) 0x21;
        commitmentScript[4] = (byte) 0xa9;
        commitmentScript[5] = (byte) 0xed;
        System.arraycopy(commitment.getBytes(), 0, commitmentScript, 6, 32);
        coinbase.addOutput(new TransactionOutput(coinbase, Coin.ZERO, commitmentScript));
        List<Sha256Hash> txids = txs.stream().map(Transaction::getTxId).toList();
        Sha256Hash merkleRoot = Consensus.merkleRoot(txids);
        BigInteger target = ByteUtils.decodeCompactBits(Consensus.POW_LIMIT_BITS);
        Block block;
        long nonce = 0;
        do {
            // bitcoinj's Block.solve() needs a global Context; a fresh header per nonce does not.
            block = new Block(
                    Consensus.MINED_BLOCK_VERSION,
                    parent.hash(),
                    merkleRoot,
                    Instant.ofEpochSecond(time),
                    Consensus.POW_LIMIT_BITS,
                    nonce++,
                    txs);
        } while (block.getHash().toBigInteger().compareTo(target) > 0);
        // Re-read from the wire so the stored object is exactly what others will parse.
        return Block.read(ByteBuffer.wrap(block.serialize()));
    }
}
