package org.blockfilter.regtest.mainnet;

import static org.blockfilter.regtest.mainnet.ChainGeneratorTest.QUIET;
import static org.blockfilter.regtest.mainnet.ChainGeneratorTest.SMALL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.bitcoinj.core.Block;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Block times ending now: only the headers differ from the default chain, and they still chain and meet the target. */
class RecentBlockTimesTest {
    private static final Instant NOW = Instant.ofEpochSecond(1_796_000_000L);

    @TempDir
    Path dir;

    @Test
    void onlyTheHeadersChangeAndTheyEndAtTheGivenTimeTenMinutesApart() throws IOException {
        Path recent = RecentBlockTimes.ensure(SMALL, dir, NOW, QUIET);
        Path fixed = ChainGenerator.ensure(SMALL, dir, QUIET);
        assertNotEquals(fixed, recent);
        try (ProfileChain r = ProfileChain.open(recent);
                ProfileChain f = ProfileChain.open(fixed)) {
            assertEquals(f.tipHeight(), r.tipHeight());
            assertEquals(f.rampEndHeight(), r.rampEndHeight());
            assertEquals(f.hashAt(0), r.hashAt(0), "genesis is regtest's");
            for (int h = 1; h <= r.tipHeight(); h++) {
                byte[] raw = r.rawBlock(h);
                byte[] old = f.rawBlock(h);
                assertArrayEquals(
                        Arrays.copyOfRange(old, 80, old.length),
                        Arrays.copyOfRange(raw, 80, raw.length),
                        "transactions at " + h);
                Block block = Block.read(ByteBuffer.wrap(raw));
                assertEquals(r.hashAt(h), block.getHash());
                assertEquals(r.hashAt(h - 1), block.getPrevBlockHash(), "prev hash at " + h);
                assertEquals(
                        NOW.getEpochSecond() - 600L * (r.tipHeight() - h),
                        block.time().getEpochSecond(),
                        "time at " + h);
                assertTrue(block.getHash().toBigInteger().compareTo(block.getDifficultyTargetAsInteger()) <= 0);
                assertEquals(
                        block.getMerkleRoot(), Block.read(ByteBuffer.wrap(old)).getMerkleRoot());
            }
            assertEquals(Long.toString(NOW.getEpochSecond()), r.meta().getProperty("tip_time"));
            assertEquals(
                    f.meta().getProperty("steady.filter_elements"), r.meta().getProperty("steady.filter_elements"));
        }
    }

    @Test
    void aYoungCacheIsReusedAndAnOldOneReStampedInPlace() throws IOException {
        Path first = RecentBlockTimes.ensure(SMALL, dir, NOW, QUIET);
        byte[] bytes = Files.readAllBytes(first);
        Path again = RecentBlockTimes.ensure(SMALL, dir, NOW.plus(Duration.ofHours(11)), QUIET);
        assertEquals(first, again);
        assertArrayEquals(bytes, Files.readAllBytes(again), "reused as it is");

        Instant later = NOW.plus(Duration.ofHours(13));
        RecentBlockTimes.ensure(SMALL, dir, later, QUIET);
        try (ProfileChain c = ProfileChain.open(first)) {
            Block tip = Block.read(ByteBuffer.wrap(c.rawBlock(c.tipHeight())));
            assertEquals(later.getEpochSecond(), tip.time().getEpochSecond());
            assertEquals(Long.toString(later.getEpochSecond()), c.meta().getProperty("tip_time"));
        }
        assertEquals(bytes.length, Files.size(first));
    }

    @Test
    void aTipTimeThatWouldPutBlocksBeforeGenesisIsRefused() throws IOException {
        Path file = ChainGenerator.ensure(SMALL, dir, QUIET);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RecentBlockTimes.restamp(file, 1_296_688_602L + 60));
        assertTrue(e.getMessage().contains("before genesis"), e.getMessage());
    }
}
