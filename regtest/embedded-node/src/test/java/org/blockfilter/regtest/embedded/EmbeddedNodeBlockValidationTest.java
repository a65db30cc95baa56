package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.embedded.internal.Chain;
import org.blockfilter.regtest.embedded.internal.Consensus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Blocks from elsewhere go through the same rules as the node's own: each case takes a valid
 * block from a second node, breaks one rule, re-solves the proof of work where needed, and
 * expects Bitcoin Core's reject reason and an unchanged tip.
 */
class EmbeddedNodeBlockValidationTest {
    private static final long COIN = 100_000_000L;
    private final ECKey miner = Fixtures.key("miner");
    private final ECKey alice = Fixtures.key("alice");
    private EmbeddedNode node;
    private EmbeddedNode source;

    @BeforeEach
    void twoNodesOnTheSameChain() {
        node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner));
        source = Fixtures.node(SettableClock.at(Fixtures.T0.plusSeconds(60)), Fixtures.p2pkh(miner));
        source.mine(101);
        for (int h = 1; h <= 101; h++) {
            node.submitBlock(source.rawBlock(source.blockHash(h).orElseThrow()).orElseThrow());
        }
        assertEquals(source.tipHash(), node.tipHash());
    }

    @AfterEach
    void close() {
        node.close();
        source.close();
    }

    /** The next block of {@code source}, mined there and parsed, not yet given to {@code node}. */
    private Block nextBlock() {
        return Fixtures.parse(source.rawBlock(source.mine(1).get(0)).orElseThrow());
    }

    private void expectRejected(String reason, Block b) {
        Sha256Hash tip = node.tipHash();
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitBlock(b.serialize()));
        assertEquals(reason, e.reason(), e.getMessage());
        assertEquals(tip, node.tipHash());
    }

    @Test
    void acceptsAValidBlockAndReportsDuplicates() {
        Block b = nextBlock();
        node.submitBlock(b.serialize());
        assertEquals(b.getHash(), node.tipHash());
        assertEquals(Chain.BlockStatus.DUPLICATE, node.chain().submitBlock(b, b.serialize()));
    }

    @Test
    void rejectsAWrongMerkleRoot() {
        Block b = nextBlock();
        expectRejected(
                "bad-txnmrklroot",
                Fixtures.resolve(b, Sha256Hash.of(new byte[] {7}), b.getTimeSeconds(), b.getDifficultyTarget()));
    }

    @Test
    void rejectsInsufficientProofOfWork() {
        Block b = nextBlock();
        expectRejected(
                "high-hash",
                Fixtures.solve(
                        b.getVersion(),
                        b.getPrevBlockHash(),
                        b.getMerkleRoot(),
                        b.getTimeSeconds(),
                        b.getDifficultyTarget(),
                        b.getTransactions(),
                        true));
    }

    @Test
    void rejectsOtherDifficultyBits() {
        Block b = nextBlock();
        expectRejected("bad-diffbits", Fixtures.resolve(b, b.getMerkleRoot(), b.getTimeSeconds(), 0x207ffffeL));
    }

    @Test
    void rejectsATimestampNotAboveMedianTimePast() {
        Block b = nextBlock();
        long mtp = Chain.medianTimePast(node.chain().tip());
        expectRejected("time-too-old", Fixtures.resolve(b, b.getMerkleRoot(), mtp, b.getDifficultyTarget()));
    }

    @Test
    void rejectsATimestampMoreThanTwoHoursAhead() {
        Block b = nextBlock();
        long future = Fixtures.T0.getEpochSecond() + 2 * 3600 + 1;
        expectRejected("time-too-new", Fixtures.resolve(b, b.getMerkleRoot(), future, b.getDifficultyTarget()));
    }

    @Test
    void rejectsAnOldBlockVersion() {
        Block b = nextBlock();
        expectRejected(
                "bad-version(0x00000001)",
                Fixtures.solve(
                        1,
                        b.getPrevBlockHash(),
                        b.getMerkleRoot(),
                        b.getTimeSeconds(),
                        b.getDifficultyTarget(),
                        b.getTransactions(),
                        false));
    }

    @Test
    void rejectsAWrongBip34Height() {
        expectRejected("bad-cb-height", blockWithCoinbase(coinbase(103, Consensus.subsidy(102).value)));
    }

    @Test
    void rejectsACoinbaseThatPaysTooMuch() {
        expectRejected("bad-cb-amount", blockWithCoinbase(coinbase(102, Consensus.subsidy(102).value + 1)));
    }

    @Test
    void acceptsABlockWithoutWitnessesAndWithoutACommitment() {
        Block b = blockWithCoinbase(coinbase(102, Consensus.subsidy(102).value));
        node.submitBlock(b.serialize());
        assertEquals(b.getHash(), node.tipHash());
    }

    @Test
    void rejectsAWitnessCommitmentThatDoesNotMatch() {
        Transaction toAlice = Fixtures.pay(Fixtures.coinbase(source, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        source.submitTransaction(toAlice.serialize());
        source.mine(1);
        node.submitBlock(source.rawBlock(source.tipHash()).orElseThrow());
        Transaction spend = Fixtures.pay(Fixtures.output(toAlice, 0, alice), Fixtures.p2wpkh(miner), 48 * COIN);
        source.submitTransaction(spend.serialize());
        Block b = nextBlock();
        Transaction cb = b.getTransactions().get(0);
        Transaction bent = new Transaction();
        bent.addInput(cb.getInput(0));
        bent.addOutput(new TransactionOutput(
                bent, cb.getOutput(0).getValue(), cb.getOutput(0).getScriptBytes()));
        byte[] commitment = cb.getOutput(1).getScriptBytes().clone();
        commitment[20] ^= 1;
        bent.addOutput(new TransactionOutput(bent, Coin.ZERO, commitment));
        List<Transaction> txs = new ArrayList<>(b.getTransactions());
        txs.set(0, bent);
        expectRejected(
                "bad-witness-merkle-match",
                Fixtures.solve(
                        b.getVersion(),
                        b.getPrevBlockHash(),
                        Fixtures.merkle(txs),
                        b.getTimeSeconds(),
                        b.getDifficultyTarget(),
                        txs,
                        false));
        // Without any commitment a block with witness data is rejected too.
        txs.set(0, coinbase(103, Consensus.subsidy(103).value + 1000));
        expectRejected(
                "unexpected-witness",
                Fixtures.solve(
                        b.getVersion(),
                        b.getPrevBlockHash(),
                        Fixtures.merkle(txs),
                        b.getTimeSeconds(),
                        b.getDifficultyTarget(),
                        txs,
                        false));
    }

    @Test
    void rejectsABlockThatSpendsTheSameOutputTwice() {
        Transaction first = Fixtures.pay(Fixtures.coinbase(source, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        Transaction second = Fixtures.pay(Fixtures.coinbase(source, 1, miner), Fixtures.p2pkh(alice), 48 * COIN);
        Block b = nextBlock();
        List<Transaction> txs = new ArrayList<>(List.of(coinbase(102, Consensus.subsidy(102).value), first, second));
        expectRejected(
                "bad-txns-inputs-missingorspent",
                Fixtures.solve(
                        b.getVersion(),
                        b.getPrevBlockHash(),
                        Fixtures.merkle(txs),
                        b.getTimeSeconds(),
                        b.getDifficultyTarget(),
                        txs,
                        false));
        assertEquals(
                Chain.BlockStatus.DUPLICATE_INVALID,
                node.chain()
                        .submitBlock(
                                Fixtures.solve(
                                        b.getVersion(),
                                        b.getPrevBlockHash(),
                                        Fixtures.merkle(txs),
                                        b.getTimeSeconds(),
                                        b.getDifficultyTarget(),
                                        txs,
                                        false),
                                new byte[0]));
    }

    @Test
    void rejectsABlockWithABadSignature() {
        Transaction tx = Fixtures.pay(Fixtures.coinbase(source, 1, miner), Fixtures.p2wpkh(alice), 49 * COIN);
        byte[] scriptSig = tx.getInput(0).getScriptBytes().clone();
        scriptSig[12] ^= 1;
        tx.replaceInput(0, tx.getInput(0).withScriptBytes(scriptSig));
        Block b = nextBlock();
        List<Transaction> txs = new ArrayList<>(List.of(coinbase(102, Consensus.subsidy(102).value), tx));
        Block bad = Fixtures.solve(
                b.getVersion(),
                b.getPrevBlockHash(),
                Fixtures.merkle(txs),
                b.getTimeSeconds(),
                b.getDifficultyTarget(),
                txs,
                false);
        RejectedException e = assertThrows(RejectedException.class, () -> node.submitBlock(bad.serialize()));
        assertEquals(true, e.reason().startsWith("mandatory-script-verify-flag-failed"), e.getMessage());
    }

    @Test
    void rejectsAnUnknownParentAndUndecodableBytes() {
        Block b = nextBlock();
        Block orphan = Fixtures.solve(
                b.getVersion(),
                Sha256Hash.of(new byte[] {9}),
                b.getMerkleRoot(),
                b.getTimeSeconds(),
                b.getDifficultyTarget(),
                b.getTransactions(),
                false);
        expectRejected("prev-blk-not-found", orphan);
        byte[] raw = b.serialize();
        assertEquals(
                -22,
                assertThrows(RejectedException.class, () -> node.submitBlock(Arrays.copyOf(raw, raw.length + 1)))
                        .rpcCode());
        assertEquals(
                -22,
                assertThrows(RejectedException.class, () -> node.submitBlock(Arrays.copyOf(raw, 50)))
                        .rpcCode());
    }

    /** A coinbase for {@code height} without witness commitment, paying {@code value} to the miner. */
    private Transaction coinbase(int height, long value) {
        Transaction cb = new Transaction();
        cb.addInput(TransactionInput.coinbaseInput(
                cb, new ScriptBuilder().number(height).number(77).build().program()));
        cb.addOutput(new TransactionOutput(cb, Coin.valueOf(value), Fixtures.script(Fixtures.p2pkh(miner))));
        return cb;
    }

    private Block blockWithCoinbase(Transaction cb) {
        Block b = nextBlock();
        List<Transaction> txs = List.of(cb);
        return Fixtures.solve(
                b.getVersion(),
                b.getPrevBlockHash(),
                Fixtures.merkle(txs),
                b.getTimeSeconds(),
                b.getDifficultyTarget(),
                txs,
                false);
    }
}
