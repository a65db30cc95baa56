package org.blockfilter.regtest.embedded;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.embedded.internal.Consensus;
import org.blockfilter.regtest.embedded.internal.InputSigner;
import org.blockfilter.regtest.embedded.internal.OutPoint;

/** Keys, nodes and transactions for the embedded node's tests. Stateless. */
final class Fixtures {
    static final Instant T0 = Instant.parse("2024-06-01T00:00:00Z");

    private Fixtures() {}

    static ECKey key(String name) {
        return ECKey.fromPrivate(Sha256Hash.hash(name.getBytes(StandardCharsets.UTF_8)));
    }

    static Address p2pkh(ECKey key) {
        return key.toAddress(ScriptType.P2PKH, BitcoinNetwork.REGTEST);
    }

    static Address p2wpkh(ECKey key) {
        return key.toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST);
    }

    static byte[] script(Address a) {
        return ScriptBuilder.createOutputScript(a).program();
    }

    /** A node with a clock standing still at {@link #T0}, mining to {@code miner}. */
    static EmbeddedNode node(SettableClock clock, Address miner) {
        return EmbeddedNode.start(
                EmbeddedNode.Config.defaults().withClock(clock).withMiningAddress(miner));
    }

    /** The coinbase output of the best-chain block at {@code height}. */
    static InputSigner.Input coinbase(EmbeddedNode node, int height, ECKey owner) {
        Block b = node.block(node.blockHash(height).orElseThrow()).orElseThrow();
        Transaction cb = b.getTransactions().get(0);
        TransactionOutput out = cb.getOutput(0);
        return new InputSigner.Input(new OutPoint(cb.getTxId(), 0), out.getValue().value, out.getScriptBytes(), owner);
    }

    /** Output {@code index} of {@code tx}, owned by {@code owner}. */
    static InputSigner.Input output(Transaction tx, int index, ECKey owner) {
        TransactionOutput out = tx.getOutput(index);
        return new InputSigner.Input(
                new OutPoint(tx.getTxId(), index), out.getValue().value, out.getScriptBytes(), owner);
    }

    /** A signed transaction spending {@code inputs} to {@code to} (amount) and nothing else. */
    static Transaction pay(List<InputSigner.Input> inputs, Address to, long amount) {
        Transaction tx = new Transaction();
        tx.addOutput(new TransactionOutput(tx, Coin.valueOf(amount), script(to)));
        InputSigner.addInputs(tx, inputs);
        return InputSigner.sign(tx, inputs);
    }

    static Transaction pay(InputSigner.Input input, Address to, long amount) {
        return pay(List.of(input), to, amount);
    }

    static Block parse(byte[] raw) {
        return Block.read(ByteBuffer.wrap(raw));
    }

    /** A copy of the header fields with a nonce that meets the regtest target (or, if {@code fail}, one that does not). */
    static Block solve(
            long version,
            Sha256Hash prev,
            Sha256Hash merkle,
            long time,
            long bits,
            List<Transaction> txs,
            boolean fail) {
        BigInteger target = org.bitcoinj.base.internal.ByteUtils.decodeCompactBits(bits);
        for (long nonce = 0; ; nonce++) {
            Block b = new Block(version, prev, merkle, Instant.ofEpochSecond(time), bits, nonce, txs);
            boolean meets = b.getHash().toBigInteger().compareTo(target) <= 0;
            if (meets != fail) {
                return b;
            }
        }
    }

    /** Re-solves {@code b} with its fields but the given merkle root, time and bits. */
    static Block resolve(Block b, Sha256Hash merkle, long time, long bits) {
        return solve(b.getVersion(), b.getPrevBlockHash(), merkle, time, bits, b.getTransactions(), false);
    }

    /** bitcoinj's own merkle root of {@code txs} (independent of the node's code). */
    static Sha256Hash merkle(List<Transaction> txs) {
        return new Block(1, Sha256Hash.ZERO_HASH, null, Instant.EPOCH, Consensus.POW_LIMIT_BITS, 0, txs)
                .getMerkleRoot();
    }
}
