package org.blockfilter.regtest.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.regtest.RegtestNode;
import org.junit.jupiter.api.Test;

class BranchBuilderTest {
    private final Address payTo = new ECKey().toAddress(ScriptType.P2WPKH, RegtestNode.PARAMS.network());
    private final Sha256Hash parent = Sha256Hash.of(new byte[] {7});

    @Test
    void buildsASolvedBlockWithBip34HeightAndTheSubsidy() {
        Block block = BranchBuilder.coinbaseOnly(parent, 321, Instant.ofEpochSecond(1_700_000_000L), payTo, 1);
        assertTrue(
                block.getHash().toBigInteger().compareTo(block.getDifficultyTargetAsInteger()) <= 0, "proof of work");
        assertEquals(parent, block.getPrevBlockHash());
        assertEquals(block.getTransactions().get(0).getTxId(), block.getMerkleRoot());
        assertDoesNotThrow(() -> block.getTransactions().get(0).checkCoinBaseHeight(321));
        assertEquals(
                Coin.FIFTY_COINS.shiftRight(2),
                block.getTransactions().get(0).getOutput(0).getValue());
        assertEquals(
                block.getHash(),
                RegtestNode.PARAMS
                        .getDefaultSerializer()
                        .makeBlock(java.nio.ByteBuffer.wrap(block.serialize()))
                        .getHash(),
                "serializes and parses back");
    }

    @Test
    void differentSaltsGiveDifferentBlocks() {
        Instant t = Instant.ofEpochSecond(1_700_000_000L);
        assertNotEquals(
                BranchBuilder.coinbaseOnly(parent, 5, t, payTo, 1).getHash(),
                BranchBuilder.coinbaseOnly(parent, 5, t, payTo, 2).getHash());
    }

    @Test
    void subsidyHalvesEvery150BlocksOnRegtest() {
        assertEquals(Coin.FIFTY_COINS, BranchBuilder.subsidy(149));
        assertEquals(Coin.FIFTY_COINS.divide(2), BranchBuilder.subsidy(150));
        assertEquals(Coin.ZERO, BranchBuilder.subsidy(150 * 64));
    }

    @Test
    void logTailKeepsTheLastLines() throws Exception {
        Path log = Files.createTempFile("logtail", ".log");
        try {
            Files.writeString(log, "one\ntwo\nthree\nfour\n");
            assertEquals("three\nfour", LogTail.of(log, 2));
            assertTrue(LogTail.of(log.resolveSibling("missing.log"), 2).contains("no log file"));
        } finally {
            Files.delete(log);
        }
    }
}
