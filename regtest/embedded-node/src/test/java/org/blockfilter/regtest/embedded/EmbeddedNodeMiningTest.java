package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.embedded.internal.Consensus;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.junit.jupiter.api.Test;

class EmbeddedNodeMiningTest {
    private final ECKey miner = Fixtures.key("miner");

    @Test
    void minedBlocksPassBitcoinjVerificationAndRegtestProofOfWork() {
        try (EmbeddedNode node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner))) {
            List<Sha256Hash> hashes = node.mine(20);
            assertEquals(20, node.tipHeight());
            assertEquals(hashes.get(19), node.tipHash());
            for (int h = 1; h <= 20; h++) {
                Block b = node.block(node.blockHash(h).orElseThrow()).orElseThrow();
                Block.verifyTransactions(RegtestNode.PARAMS, b, h, EnumSet.of(Block.VerifyFlag.HEIGHT_IN_COINBASE));
                assertEquals(0x207fffffL, b.getDifficultyTarget());
                assertTrue(
                        b.getHash().toBigInteger().compareTo(b.getDifficultyTargetAsInteger()) <= 0, "proof of work");
                assertEquals(Fixtures.merkle(b.getTransactions()), b.getMerkleRoot());
                assertTrue(b.getVersion() >= 4, "BIP 34/65/66 need version 4 or more");
                assertEquals(node.blockHash(h - 1).orElseThrow(), b.getPrevBlockHash());
            }
        }
    }

    @Test
    void coinbaseCarriesBip34HeightAndAValidWitnessCommitment() {
        try (EmbeddedNode node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner))) {
            node.mine(20);
            for (int h : new int[] {1, 16, 17, 20}) {
                Block b = node.block(node.blockHash(h).orElseThrow()).orElseThrow();
                Transaction cb = b.getTransactions().get(0);
                byte[] scriptSig = cb.getInput(0).getScriptBytes();
                byte[] height = new ScriptBuilder().number(h).build().program();
                assertArrayEquals(height, java.util.Arrays.copyOf(scriptSig, height.length), "BIP 34 height prefix");
                assertTrue(scriptSig.length >= 2 && scriptSig.length <= 100, "coinbase scriptSig length 2..100");
                Sha256Hash commitment = cb.findWitnessCommitment();
                assertEquals(1, cb.getInput(0).getWitness().getPushCount());
                byte[] reserved = cb.getInput(0).getWitness().getPush(0);
                assertEquals(32, reserved.length);
                assertEquals(Sha256Hash.twiceOf(b.getWitnessRoot().serialize(), reserved), commitment);
            }
        }
    }

    @Test
    void subsidyIsFiftyBitcoinAndHalvesEvery150Blocks() {
        assertEquals(Coin.COIN.multiply(50), Consensus.subsidy(1));
        assertEquals(Coin.COIN.multiply(50), Consensus.subsidy(149));
        assertEquals(Coin.COIN.multiply(25), Consensus.subsidy(150));
        assertEquals(Coin.valueOf(1_250_000_000L), Consensus.subsidy(300));
        assertEquals(Coin.ZERO, Consensus.subsidy(150 * 64));
        try (EmbeddedNode node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner))) {
            node.mine(150);
            assertEquals(Coin.COIN.multiply(50), coinbaseValue(node, 149));
            assertEquals(Coin.COIN.multiply(25), coinbaseValue(node, 150));
        }
    }

    @Test
    void timestampsAlwaysExceedMedianTimePastEvenWhenTheClockStandsStill() {
        try (EmbeddedNode node = Fixtures.node(SettableClock.at(Fixtures.T0), Fixtures.p2pkh(miner))) {
            node.mine(30);
            List<Long> times = new ArrayList<>();
            for (int h = 0; h <= 30; h++) {
                long t = node.block(node.blockHash(h).orElseThrow())
                        .orElseThrow()
                        .getTimeSeconds();
                if (h > 0) {
                    List<Long> last = new ArrayList<>(times.subList(Math.max(0, times.size() - 11), times.size()));
                    Collections.sort(last);
                    assertTrue(
                            t > last.get(last.size() / 2),
                            "block " + h + " time " + t + " must exceed median time past");
                }
                times.add(t);
            }
        }
    }

    @Test
    void sameClockAndCallsGiveTheSameChainByteForByte() {
        Address to = Fixtures.p2wpkh(miner);
        try (EmbeddedNode a = Fixtures.node(SettableClock.at(Fixtures.T0), to);
                EmbeddedNode b = Fixtures.node(SettableClock.at(Fixtures.T0), to)) {
            a.mine(5);
            b.mine(5);
            for (int h = 0; h <= 5; h++) {
                assertArrayEquals(
                        a.rawBlock(a.blockHash(h).orElseThrow()).orElseThrow(),
                        b.rawBlock(b.blockHash(h).orElseThrow()).orElseThrow());
            }
        }
    }

    @Test
    void demoChainIsDeterministicPerSeedAndHasPayments() {
        String[] tips = new String[3];
        int[] txs = new int[3];
        long[] seeds = {42, 42, 43};
        for (int i = 0; i < 3; i++) {
            ScenarioSpec spec = DemoChain.spec(112, seeds[i]);
            SettableClock clock = SettableClock.at(Fixtures.T0);
            try (EmbeddedNode node = DemoChain.startFor(spec, EmbeddedNode.Config.defaults(), clock)) {
                txs[i] = DemoChain.build(node, clock, spec, line -> {})
                        .transactions()
                        .size();
                tips[i] = node.tipHash().toString();
                assertEquals(112, node.tipHeight());
            }
        }
        assertEquals(tips[0], tips[1]);
        assertNotEquals(tips[0], tips[2]);
        assertTrue(txs[0] > 10, "the demo chain has payments once coinbases mature: " + txs[0]);
    }

    private static Coin coinbaseValue(EmbeddedNode node, int height) {
        return node.block(node.blockHash(height).orElseThrow())
                .orElseThrow()
                .getTransactions()
                .get(0)
                .getOutput(0)
                .getValue();
    }
}
