package org.blockfilter.server.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.core.Block;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.PrevoutScripts;
import org.blockfilter.regtest.mainnet.ChainGenerator;
import org.blockfilter.regtest.mainnet.MainnetProfile;
import org.blockfilter.regtest.mainnet.Prevout;
import org.blockfilter.regtest.mainnet.ProfileChain;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The indexer indexes a small mainnet-profile chain (a scaled-down ramp, then mainnet-shaped
 * blocks) through {@link MainnetProfileBlockSource} to the filters BIP 158 gives, computed here
 * independently from the generator's own record of what each input spends.
 */
class MainnetProfileIndexingTest {
    /** ~30 blocks: a ramp to 20,000 UTXOs in blocks of 2,000 outputs, then 20 blocks of ~300 transactions. */
    private static final MainnetProfile SMALL = MainnetProfile.MAINNET
            .withUtxoTarget(20_000)
            .withRampOutputsPerBlock(2_000)
            .withSteadyBlocks(20)
            .withTxPerBlock(300);

    @TempDir
    Path dir;

    @Test
    void indexesTheRampAndTheSteadyPhaseToTheFiltersBip158Gives() throws IOException {
        Path file =
                ChainGenerator.ensure(SMALL, dir.resolve("chain"), new PrintStream(OutputStream.nullOutputStream()));
        try (ProfileChain chain = ProfileChain.open(file);
                IndexStore store = IndexStore.open(dir.resolve("index"))) {
            assertTrue(chain.tipHeight() >= 25, "tip " + chain.tipHeight());
            MainnetProfileBlockSource source = new MainnetProfileBlockSource(chain);
            source.serveUpTo(chain.rampEndHeight());
            try (FilterIndexer indexer = new FilterIndexer(store, source, Duration.ofMillis(50))) {
                assertEquals(chain.rampEndHeight(), indexer.syncOnce().connected() - 1);
                source.serveUpTo(chain.tipHeight());
                assertEquals(
                        chain.tipHeight() - chain.rampEndHeight(),
                        indexer.syncOnce().connected());
            }
            assertEquals(chain.tipHeight(), store.tip().orElseThrow().height());
            for (int h = 1; h <= chain.tipHeight(); h++) {
                Block block = Block.read(ByteBuffer.wrap(chain.rawBlock(h)));
                List<byte[]> scripts =
                        chain.prevouts(h).stream().map(Prevout::script).toList();
                BasicFilter expected = BasicFilter.build(block, PrevoutScripts.inInputOrder(block, scripts));
                StoredBlock stored = store.block(chain.hashAt(h)).orElseThrow();
                assertArrayEquals(expected.bytes(), stored.filter(), "filter at height " + h);
            }
        }
    }
}
