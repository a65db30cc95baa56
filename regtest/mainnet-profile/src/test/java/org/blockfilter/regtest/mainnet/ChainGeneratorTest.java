package org.blockfilter.regtest.mainnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated chain is deterministic, well-formed, and replays from its cache file. */
class ChainGeneratorTest {
    static final MainnetProfile SMALL = MainnetProfile.MAINNET
            .withUtxoTarget(30_000)
            .withRampOutputsPerBlock(3_000)
            .withSteadyBlocks(12)
            .withTxPerBlock(400);

    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;

    @Test
    void sameProfileGivesIdenticalBytesAndAnotherSeedDoesNot() throws IOException {
        Path a = dir.resolve("a.chain");
        Path b = dir.resolve("b.chain");
        Path c = dir.resolve("c.chain");
        ChainGenerator.generate(SMALL, a, QUIET);
        ChainGenerator.generate(SMALL, b, QUIET);
        ChainGenerator.generate(SMALL.withSeed(2), c, QUIET);
        assertEquals(-1, Files.mismatch(a, b));
        assertNotEquals(-1, Files.mismatch(a, c));
    }

    @Test
    void ensureReusesTheCacheFile() throws IOException {
        Path first = ChainGenerator.ensure(SMALL, dir, QUIET);
        long modified = Files.getLastModifiedTime(first).toMillis();
        Path second = ChainGenerator.ensure(SMALL, dir, QUIET);
        assertEquals(first, second);
        assertEquals(modified, Files.getLastModifiedTime(second).toMillis());
        assertTrue(first.getFileName().toString().startsWith(SMALL.key()));
    }

    @Test
    void blocksParseChainAndCarryTheirMerkleRootWitnessCommitmentAndWork() throws IOException {
        try (ProfileChain chain = ProfileChain.open(ChainGenerator.ensure(SMALL, dir, QUIET))) {
            assertTrue(chain.rampEndHeight() > 1 && chain.rampEndHeight() < chain.tipHeight());
            assertEquals(chain.rampEndHeight() + SMALL.steadyBlocks(), chain.tipHeight());
            Sha256Hash prev = null;
            for (int h = 0; h <= chain.tipHeight(); h++) {
                Block block = Block.read(ByteBuffer.wrap(chain.rawBlock(h)));
                assertEquals(chain.hashAt(h), block.getHash(), "hash at " + h);
                assertEquals(h, chain.heightOf(block.getHash()).orElseThrow());
                if (prev != null) {
                    assertEquals(prev, block.getPrevBlockHash(), "prev hash at " + h);
                    assertEquals(0x207fffffL, block.getDifficultyTarget());
                    assertTrue(block.getHash().toBigInteger().compareTo(block.getDifficultyTargetAsInteger()) <= 0);
                    List<Transaction> txs = block.getTransactions();
                    assertEquals(block.getMerkleRoot(), merkleRoot(txs, false), "merkle root at " + h);
                    assertWitnessCommitment(txs, h);
                    assertPrevoutsMatchInputs(chain, h, txs);
                }
                prev = block.getHash();
            }
        }
    }

    @Test
    void rejectsImpossibleProfiles() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> MainnetProfile.MAINNET.withRampOutputsPerBlock(40_000));
        assertTrue(e.getMessage().contains("rampOutputsPerBlock"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MainnetProfile.MAINNET.withTxPerBlock(9_000));
        assertThrows(IllegalArgumentException.class, () -> MainnetProfile.MAINNET.withSteadyBlocks(-1));
    }

    private static void assertPrevoutsMatchInputs(ProfileChain chain, int h, List<Transaction> txs) {
        int inputs = 0;
        for (Transaction tx : txs) {
            if (!tx.isCoinBase()) {
                inputs += tx.getInputs().size();
            }
        }
        List<Prevout> prevouts = chain.prevouts(h);
        assertEquals(inputs, prevouts.size(), "prevouts at " + h);
        int i = 0;
        for (Transaction tx : txs) {
            if (tx.isCoinBase()) {
                continue;
            }
            for (TransactionInput in : tx.getInputs()) {
                Prevout p = prevouts.get(i++);
                assertTrue(p.height() < h, "spends an earlier block");
                assertTrue(ScriptType.classify(p.script()) != null
                        && ScriptType.classify(p.script()) != ScriptType.OP_RETURN);
                // the spent output is really that script, in the block at that height
                Block created = Block.read(ByteBuffer.wrap(chain.rawBlock(p.height())));
                Transaction parent = created.getTransactions().stream()
                        .filter(t -> t.getTxId().equals(in.getOutpoint().hash()))
                        .findFirst()
                        .orElseThrow();
                assertArrayEquals(
                        p.script(), parent.getOutput(in.getOutpoint().index()).getScriptBytes());
                assertEquals(
                        p.value(), parent.getOutput(in.getOutpoint().index()).getValue().value);
            }
        }
    }

    private static void assertWitnessCommitment(List<Transaction> txs, int h) {
        List<Sha256Hash> wtxids = new ArrayList<>();
        wtxids.add(Sha256Hash.ZERO_HASH);
        for (int i = 1; i < txs.size(); i++) {
            wtxids.add(txs.get(i).getWTxId());
        }
        Sha256Hash root = merkle(wtxids);
        byte[] input = new byte[64];
        System.arraycopy(root.getReversedBytes(), 0, input, 0, 32);
        byte[] expected = Sha256Hash.hashTwice(input);
        byte[] script =
                txs.get(0).getOutputs().get(txs.get(0).getOutputs().size() - 1).getScriptBytes();
        assertArrayEquals(
                new byte[] {0x6a, 0x24, (byte) 0xaa, 0x21, (byte) 0xa9, (byte) 0xed}, Arrays.copyOf(script, 6));
        assertArrayEquals(expected, Arrays.copyOfRange(script, 6, 38), "witness commitment at " + h);
    }

    static Sha256Hash merkleRoot(List<Transaction> txs, boolean witness) {
        List<Sha256Hash> ids = new ArrayList<>();
        for (Transaction tx : txs) {
            ids.add(witness ? tx.getWTxId() : tx.getTxId());
        }
        return merkle(ids);
    }

    static Sha256Hash merkle(List<Sha256Hash> ids) {
        List<byte[]> level = new ArrayList<>();
        for (Sha256Hash id : ids) {
            level.add(id.getReversedBytes()); // internal byte order
        }
        while (level.size() > 1) {
            List<byte[]> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += 2) {
                byte[] l = level.get(i);
                byte[] r = i + 1 < level.size() ? level.get(i + 1) : l;
                byte[] pair = new byte[64];
                System.arraycopy(l, 0, pair, 0, 32);
                System.arraycopy(r, 0, pair, 32, 32);
                next.add(Sha256Hash.hashTwice(pair));
            }
            level = next;
        }
        return Sha256Hash.wrapReversed(level.get(0));
    }
}
