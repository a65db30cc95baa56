package org.blockfilter.regtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.server.ServerMain;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's default mode end to end, as the packaged application runs it: {@code ServerMain
 * --embedded} finds the embedded node through the launcher SPI, builds the deterministic demo
 * chain, indexes it, and a second run over the same data directory resumes with nothing to do.
 */
class ServerMainEmbeddedTest {
    @TempDir
    Path dir;

    @Test
    void embeddedModeIndexesTheDemoChainAndResumesIdempotently() {
        String[] args = {
            "--embedded",
            "--demo-blocks",
            "110",
            "--demo-seed",
            "7",
            // A fixed chain: the same start time (block times are otherwise counted back from now), no miner.
            "--demo-start",
            "2025-01-01T00:00:00Z",
            "--demo-block-interval",
            "0",
            "--exit-when-synced",
            "--data-dir",
            dir.toString()
        };
        assertEquals(0, ServerMain.run(args));
        Sha256Hash digest;
        try (IndexStore store = IndexStore.open(dir)) {
            ChainTip tip = store.tip().orElseThrow();
            assertTrue(tip.height() >= 100, "demo chain indexed to " + tip.height());
            List<StoredBlock> chain = store.activeRange(0, tip.hash()).orElseThrow();
            Sha256Hash prev = FilterHeaders.GENESIS_PREV;
            for (StoredBlock b : chain) {
                assertEquals(prev, b.prevFilterHeader(), "height " + b.height());
                assertEquals(FilterHeaders.next(b.filterHash(), prev), b.filterHeader(), "height " + b.height());
                prev = b.filterHeader();
            }
            digest = store.inspection().contentDigest();
        }

        assertEquals(0, ServerMain.run(args));
        try (IndexStore store = IndexStore.open(dir)) {
            assertEquals(digest, store.inspection().contentDigest(), "the same demo chain again: nothing changes");
        }
    }
}
