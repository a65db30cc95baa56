package org.blockfilter.server.store;

import static org.blockfilter.server.store.TestBlocks.block;
import static org.blockfilter.server.store.TestBlocks.chain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link IndexStore#openActiveRange}: activeRange's answer, one block at a time, from one snapshot. */
class IndexStoreRangeCursorTest {
    @TempDir
    Path dir;

    private static List<StoredBlock> drain(ActiveRangeCursor cursor) {
        List<StoredBlock> out = new ArrayList<>();
        while (cursor.hasNext()) {
            out.add(cursor.next());
        }
        return out;
    }

    @Test
    void cursorGivesTheBlocksOfActiveRange() {
        try (IndexStore store = IndexStore.open(dir)) {
            List<StoredBlock> blocks = chain(store, 5, 1);
            try (ActiveRangeCursor c =
                    store.openActiveRange(1, blocks.get(3).blockHash()).orElseThrow()) {
                assertEquals(3, c.stopHeight());
                assertEquals(store.activeRange(1, blocks.get(3).blockHash()).orElseThrow(), drain(c));
                assertThrows(NoSuchElementException.class, c::next);
            }
        }
    }

    @Test
    void cursorRejectsWhatActiveRangeRejects() {
        try (IndexStore store = IndexStore.open(dir)) {
            List<StoredBlock> blocks = chain(store, 3, 1);
            assertTrue(store.openActiveRange(2, blocks.get(1).blockHash()).isEmpty());
            assertTrue(store.openActiveRange(-1, blocks.get(1).blockHash()).isEmpty());
            assertTrue(store.openActiveRange(0, Sha256Hash.of(new byte[] {1})).isEmpty());
            store.disconnectTip(false);
            assertTrue(store.openActiveRange(0, blocks.get(2).blockHash()).isEmpty());
        }
    }

    @Test
    void cursorKeepsReadingItsSnapshotThroughAReorg() {
        try (IndexStore store = IndexStore.open(dir)) {
            List<StoredBlock> old = chain(store, 4, 1);
            try (ActiveRangeCursor c =
                    store.openActiveRange(1, old.get(3).blockHash()).orElseThrow()) {
                List<StoredBlock> read = new ArrayList<>(List.of(c.next()));
                store.disconnectTip(false);
                store.disconnectTip(false);
                StoredBlock b2 = block(2, old.get(1).blockHash(), 9);
                store.connect(b2, List.of(), List.of(), false);
                store.connect(block(3, b2.blockHash(), 9), List.of(), List.of(), false);
                read.addAll(drain(c));
                assertEquals(old.subList(1, 4), read);
            }
            assertTrue(store.openActiveRange(1, old.get(3).blockHash()).isEmpty());
        }
    }

    @Test
    void secondaryCursorReadsUnderTheLockAndReleasesItOnClose() {
        Path index = dir.resolve("index");
        try (IndexStore primary = IndexStore.open(index)) {
            List<StoredBlock> blocks = chain(primary, 3, 1);
            try (IndexStore secondary = IndexStore.openSecondary(index, dir.resolve("secondary"))) {
                secondary.catchUp();
                ActiveRangeCursor c =
                        secondary.openActiveRange(0, blocks.get(2).blockHash()).orElseThrow();
                assertEquals(blocks, drain(c));
                c.close();
                c.close();
                assertFalse(c.hasNext());
                // the read lock is free again: catch-up (write lock) and close proceed
                assertEquals(primary.tip(), secondary.catchUp());
            }
        }
    }
}
