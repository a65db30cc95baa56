package org.blockfilter.server.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
    private static final Sha256Hash BLOCK = Sha256Hash.of(new byte[] {7});

    private static UnspentOutput out(String tx, int index, int scriptLength) {
        byte[] script = new byte[scriptLength];
        Arrays.fill(script, (byte) 0x51);
        return new UnspentOutput(Sha256Hash.of(tx.getBytes()), index, script);
    }

    @Test
    void outpointKeyIsTheTxidInWireOrderThenTheBigEndianIndex() {
        Sha256Hash txId = Sha256Hash.of("k".getBytes());
        byte[] expected =
                ByteBuffer.allocate(36).put(txId.serialize()).putInt(0x01020384).array();
        assertArrayEquals(expected, RecordCodec.outpointKey(txId, 0x01020384L));
    }

    @Test
    void blockRecordDecodesToTheBlockItEncodes() {
        StoredBlock b = TestBlocks.block(1234, Sha256Hash.of(new byte[] {1}), 5, 300);
        byte[] record = RecordCodec.encodeBlock(b);
        assertEquals(RecordCodec.RECORD_FIXED + 300, record.length);
        assertEquals(1234, RecordCodec.recordHeight(record));
        assertEquals(b, RecordCodec.decodeBlock(b.blockHash(), record));
    }

    @Test
    void shortBlockRecordIsCorruptionNamingTheBlock() {
        StoreException e = assertThrows(
                StoreException.class, () -> RecordCodec.decodeBlock(BLOCK, new byte[RecordCodec.RECORD_FIXED - 1]));
        assertTrue(e.getMessage().contains(BLOCK.toString()), e.getMessage());
    }

    @Test
    void undoRecordDecodesToTheSpentOutputsAndCreatedKeys() {
        List<UnspentOutput> spent = List.of(out("a", 0, 25), out("b", 3, 300));
        List<UnspentOutput> created = List.of(out("c", 1, 22));
        RecordCodec.Undo undo = RecordCodec.decodeUndo(BLOCK, RecordCodec.encodeUndo(spent, created));
        assertEquals(2, undo.spentKeys().size());
        for (int i = 0; i < spent.size(); i++) {
            UnspentOutput o = spent.get(i);
            assertArrayEquals(
                    RecordCodec.outpointKey(o.txId(), o.index()),
                    undo.spentKeys().get(i));
            assertArrayEquals(o.script(), undo.spentScripts().get(i));
        }
        assertEquals(1, undo.createdKeys().size());
        assertArrayEquals(
                RecordCodec.outpointKey(created.get(0).txId(), 1),
                undo.createdKeys().get(0));
    }

    @Test
    void emptyUndoRecordIsTwoZeroCounts() {
        byte[] empty = RecordCodec.encodeUndo(List.of(), List.of());
        assertArrayEquals(new byte[] {0, 0}, empty);
        RecordCodec.Undo undo = RecordCodec.decodeUndo(BLOCK, empty);
        assertTrue(undo.spentKeys().isEmpty() && undo.createdKeys().isEmpty());
    }

    @Test
    void truncatedOrOverlongUndoRecordIsCorruptionNamingTheBlock() {
        byte[] good = RecordCodec.encodeUndo(List.of(out("a", 0, 25)), List.of(out("c", 1, 22)));
        for (byte[] bad : List.of(Arrays.copyOf(good, good.length - 1), Arrays.copyOf(good, good.length + 1))) {
            StoreException e = assertThrows(StoreException.class, () -> RecordCodec.decodeUndo(BLOCK, bad));
            assertTrue(e.getMessage().contains("undo data of " + BLOCK), e.getMessage());
        }
    }

    @Test
    void tipValueDecodesToHeightAndHash() {
        assertEquals(new ChainTip(42, BLOCK), RecordCodec.decodeTip(RecordCodec.tipValue(42, BLOCK.serialize())));
        assertThrows(StoreException.class, () -> RecordCodec.decodeTip(new byte[35]));
    }
}
