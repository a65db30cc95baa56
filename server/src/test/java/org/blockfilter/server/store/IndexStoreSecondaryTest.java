package org.blockfilter.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read-only secondary instance beside the primary that indexes into the same directory. */
class IndexStoreSecondaryTest {
    @TempDir
    Path dir;

    /** A block with a 700-byte filter, nearer real filter sizes than the 3-byte default. */
    private static StoredBlock extend(IndexStore store, int nonce) {
        return TestBlocks.extend(store, nonce, 700);
    }

    @Test
    void secondarySeesWhatThePrimaryWroteAfterEachCatchUp() {
        try (IndexStore primary = IndexStore.open(dir.resolve("index"))) {
            StoredBlock genesis = extend(primary, 0);
            try (IndexStore secondary = IndexStore.openSecondary(dir.resolve("index"), dir.resolve("secondary"))) {
                assertTrue(secondary.isSecondary());
                assertEquals(primary.tip(), secondary.tip());
                assertEquals(
                        primary.inspection().contentDigest(),
                        secondary.inspection().contentDigest(),
                        "the same bytes in every family");
                assertEquals(Optional.of(genesis), secondary.block(genesis.blockHash()));

                StoredBlock b1 = extend(primary, 1);
                StoredBlock b2 = extend(primary, 2);
                assertEquals(0, secondary.tip().orElseThrow().height(), "nothing new before catching up");
                assertEquals(primary.tip(), secondary.catchUp());
                assertEquals(Optional.of(b2), secondary.block(b2.blockHash()));
                assertEquals(
                        List.of(genesis, b1, b2),
                        secondary.activeRange(0, b2.blockHash()).orElseThrow());

                primary.disconnectTip(true);
                StoredBlock b2b = extend(primary, 22);
                secondary.catchUp();
                assertEquals(Optional.of(b2b.blockHash()), secondary.hashAt(2), "follows the primary's reorg");
                assertTrue(secondary.block(b2.blockHash()).isPresent(), "the stale block stays readable");
                assertEquals(
                        List.of(genesis, b1, b2b),
                        secondary.activeRange(0, b2b.blockHash()).orElseThrow());
                assertEquals(primary.tip(), secondary.tip());
                assertEquals(
                        primary.inspection().contentDigest(),
                        secondary.inspection().contentDigest(),
                        "after catching up with a reorg");
            }
        }
    }

    @Test
    void secondaryRefusesWrites() {
        try (IndexStore primary = IndexStore.open(dir.resolve("index"))) {
            extend(primary, 0);
            try (IndexStore secondary = IndexStore.openSecondary(dir.resolve("index"), dir.resolve("secondary"))) {
                assertThrows(IllegalStateException.class, () -> extend(secondary, 1));
                assertThrows(IllegalStateException.class, () -> secondary.disconnectTip(false));
                assertThrows(IllegalStateException.class, primary::catchUp);
            }
        }
    }

    @Test
    void secondaryOnADirectoryWithoutAnIndexSaysSo() {
        StoreException e = assertThrows(
                StoreException.class, () -> IndexStore.openSecondary(dir.resolve("none"), dir.resolve("secondary")));
        assertTrue(e.getMessage().contains("no index in"), e.getMessage());
    }
}
