package org.blockfilter.server.store;

import static org.blockfilter.server.store.TestBlocks.block;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexStoreTest {
    @TempDir
    Path dir;

    private static UnspentOutput out(String tx, int index, int scriptByte) {
        return new UnspentOutput(Sha256Hash.of(tx.getBytes()), index, new byte[] {0x51, (byte) scriptByte});
    }

    private static Optional<byte[]> script(IndexStore store, UnspentOutput o) {
        return store.unspentScript(new TransactionOutPoint(o.index(), o.txId()));
    }

    @Test
    void connectedBlockIsReadableByHashAndHeight() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock genesis = block(0, Sha256Hash.ZERO_HASH, 0);
            UnspentOutput coin = out("a", 0, 7);
            store.connect(genesis, List.of(), List.of(coin), true);

            assertEquals(Optional.of(new ChainTip(0, genesis.blockHash())), store.tip());
            assertEquals(Optional.of(genesis), store.block(genesis.blockHash()));
            assertEquals(Optional.of(genesis.blockHash()), store.hashAt(0));
            assertEquals(Optional.of(genesis.blockHash()), store.genesis());
            assertArrayEquals(coin.script(), script(store, coin).orElseThrow());
            assertTrue(store.isActive(genesis));
        }
    }

    @Test
    void unspentScriptsAnswersEachOutpointInOrderAndNullForUnknownOnes() {
        try (IndexStore store = IndexStore.open(dir)) {
            UnspentOutput a = out("a", 0, 7);
            UnspentOutput b = out("b", 300, 8);
            store.connect(block(0, Sha256Hash.ZERO_HASH, 0), List.of(), List.of(a, b), false);
            UnspentOutput unknown = out("a", 1, 9);

            List<byte[]> scripts = store.unspentScripts(List.of(
                    new TransactionOutPoint(b.index(), b.txId()),
                    new TransactionOutPoint(unknown.index(), unknown.txId()),
                    new TransactionOutPoint(a.index(), a.txId())));

            assertEquals(3, scripts.size());
            assertArrayEquals(b.script(), scripts.get(0));
            assertEquals(null, scripts.get(1));
            assertArrayEquals(a.script(), scripts.get(2));
            assertTrue(store.unspentScripts(List.of()).isEmpty());
        }
    }

    @Test
    void rejectsBlockThatDoesNotExtendTheTip() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock genesis = block(0, Sha256Hash.ZERO_HASH, 0);
            store.connect(genesis, List.of(), List.of(), false);
            Sha256Hash before = store.inspection().contentDigest();

            assertThrows(
                    IllegalStateException.class,
                    () -> store.connect(block(1, Sha256Hash.of(new byte[] {9}), 1), List.of(), List.of(), false));
            assertThrows(
                    IllegalStateException.class,
                    () -> store.connect(block(2, genesis.blockHash(), 1), List.of(), List.of(), false));
            assertEquals(before, store.inspection().contentDigest());
        }
    }

    @Test
    void disconnectRestoresSpentOutputsAndRemovesCreatedOnes() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock genesis = block(0, Sha256Hash.ZERO_HASH, 0);
            UnspentOutput coin = out("a", 0, 7);
            store.connect(genesis, List.of(), List.of(coin), false);
            StoredBlock b1 = block(1, genesis.blockHash(), 1);
            UnspentOutput change = out("b", 1, 8);
            store.connect(b1, List.of(coin), List.of(change), false);
            assertTrue(script(store, coin).isEmpty());

            assertEquals(b1, store.disconnectTip(false));

            assertArrayEquals(coin.script(), script(store, coin).orElseThrow());
            assertTrue(script(store, change).isEmpty());
            assertEquals(Optional.of(new ChainTip(0, genesis.blockHash())), store.tip());
            assertTrue(store.hashAt(1).isEmpty());
            // The disconnected block's filter stays retrievable by hash, but it is no longer active.
            assertEquals(Optional.of(b1), store.block(b1.blockHash()));
            assertFalse(store.isActive(b1));
            // Everything but the stale block record is exactly as before the block was connected.
            assertEquals(digestWithoutBlocks(store), digestWithoutBlocksAfterGenesisOnly(genesis, coin));
        }
    }

    private Sha256Hash digestWithoutBlocks(IndexStore store) {
        return store.inspection()
                .contentDigest(java.util.EnumSet.complementOf(java.util.EnumSet.of(IndexStore.Family.BLOCK)));
    }

    private Sha256Hash digestWithoutBlocksAfterGenesisOnly(StoredBlock genesis, UnspentOutput coin) {
        try (IndexStore fresh = IndexStore.open(dir.resolve("fresh"))) {
            fresh.connect(genesis, List.of(), List.of(coin), false);
            return digestWithoutBlocks(fresh);
        }
    }

    @Test
    void reconnectingADisconnectedBlockGivesByteIdenticalContent() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock genesis = block(0, Sha256Hash.ZERO_HASH, 0);
            UnspentOutput coin = out("a", 0, 7);
            StoredBlock b1 = block(1, genesis.blockHash(), 1);
            UnspentOutput change = out("b", 1, 8);
            store.connect(genesis, List.of(), List.of(coin), false);
            store.connect(b1, List.of(coin), List.of(change), false);
            Sha256Hash connected = store.inspection().contentDigest();

            store.disconnectTip(false);
            assertNotEquals(connected, store.inspection().contentDigest());
            store.connect(b1, List.of(coin), List.of(change), false);

            assertEquals(connected, store.inspection().contentDigest());
        }
    }

    @Test
    void contentAndTipSurviveReopening() {
        Sha256Hash digest;
        StoredBlock b1;
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock genesis = block(0, Sha256Hash.ZERO_HASH, 0);
            b1 = block(1, genesis.blockHash(), 1);
            store.connect(genesis, List.of(), List.of(out("a", 0, 1)), false);
            store.connect(b1, List.of(), List.of(out("b", 0, 2)), false);
            digest = store.inspection().contentDigest();
        }
        try (IndexStore store = IndexStore.open(dir)) {
            assertEquals(digest, store.inspection().contentDigest());
            assertEquals(Optional.of(new ChainTip(1, b1.blockHash())), store.tip());
        }
    }

    @Test
    void undoDataOlderThanTheUndoDepthIsPrunedAndDeeperDisconnectFailsCleanly() {
        try (IndexStore store = IndexStore.open(dir, 2)) {
            List<StoredBlock> chain = new ArrayList<>();
            Sha256Hash prev = Sha256Hash.ZERO_HASH;
            for (int h = 0; h < 5; h++) {
                StoredBlock b = block(h, prev, h);
                store.connect(b, List.of(), List.of(out("tx" + h, 0, h)), false);
                chain.add(b);
                prev = b.blockHash();
            }
            assertFalse(store.hasUndo(chain.get(2).blockHash()));
            assertTrue(store.hasUndo(chain.get(3).blockHash()));
            assertTrue(store.hasUndo(chain.get(4).blockHash()));

            store.disconnectTip(false);
            store.disconnectTip(false);
            Sha256Hash before = store.inspection().contentDigest();
            StoreException e = assertThrows(StoreException.class, () -> store.disconnectTip(false));
            assertTrue(e.getMessage().contains("no undo data"), e.getMessage());
            assertEquals(before, store.inspection().contentDigest());
            assertEquals(2, store.tip().orElseThrow().height());
        }
    }

    @Test
    void activeRangeReadsTheBestChainAndRejectsStaleOrLowStops() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock genesis = block(0, Sha256Hash.ZERO_HASH, 0);
            StoredBlock b1 = block(1, genesis.blockHash(), 1);
            StoredBlock b2 = block(2, b1.blockHash(), 2);
            store.connect(genesis, List.of(), List.of(), false);
            store.connect(b1, List.of(), List.of(), false);
            store.connect(b2, List.of(), List.of(), false);

            assertEquals(Optional.of(List.of(b1, b2)), store.activeRange(1, b2.blockHash()));
            assertEquals(Optional.of(List.of(genesis)), store.activeRange(0, genesis.blockHash()));
            assertTrue(store.activeRange(2, b1.blockHash()).isEmpty());
            assertTrue(store.activeRange(-1, b1.blockHash()).isEmpty());
            assertTrue(store.activeRange(0, Sha256Hash.of(new byte[] {1})).isEmpty());

            store.disconnectTip(false);
            assertTrue(store.activeRange(0, b2.blockHash()).isEmpty());
        }
    }

    @Test
    void readsAfterCloseFailWithStoreExceptionInsteadOfCrashing() {
        IndexStore store = IndexStore.open(dir);
        store.close();
        store.close();
        assertThrows(StoreException.class, () -> store.hashAt(0));
    }

    @Test
    void refusesADataDirectoryOfAnotherLayoutVersion() throws Exception {
        IndexStore.open(dir).close();
        List<org.rocksdb.ColumnFamilyDescriptor> cfs = new ArrayList<>();
        try (org.rocksdb.Options options = new org.rocksdb.Options()) {
            for (byte[] name : org.rocksdb.RocksDB.listColumnFamilies(options, dir.toString())) {
                cfs.add(new org.rocksdb.ColumnFamilyDescriptor(name));
            }
        }
        List<org.rocksdb.ColumnFamilyHandle> handles = new ArrayList<>();
        try (org.rocksdb.DBOptions options = new org.rocksdb.DBOptions();
                org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, dir.toString(), cfs, handles)) {
            db.put(
                    handles.get(0),
                    "version".getBytes(),
                    ByteBuffer.allocate(4).putInt(99).array());
            handles.forEach(org.rocksdb.ColumnFamilyHandle::close);
        }
        StoreException e = assertThrows(StoreException.class, () -> IndexStore.open(dir));
        assertTrue(e.getMessage().contains("layout version"), e.getMessage());
        // The refused open released the directory: a second one is refused for the same reason,
        // not for RocksDB's lock held by this process.
        StoreException again = assertThrows(StoreException.class, () -> IndexStore.open(dir));
        assertTrue(again.getMessage().contains("layout version"), again.getMessage());
    }

    @Test
    void dataDirectoryThatIsAFileIsAClearError() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("file"), "x");
        StoreException e = assertThrows(StoreException.class, () -> IndexStore.open(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }
}
