package org.blockfilter.server.store;

import static org.blockfilter.server.store.TestBlocks.extend;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IndexStore#blockRecord(Sha256Hash, ByteBuffer)}: the record {@link
 * IndexStore#blockRecord(Sha256Hash)} reads, read into the lent buffer when it fits there and onto
 * the heap when it does not.
 */
class IndexStoreBufferedReadTest {
    @TempDir
    Path dir;

    @Test
    void aRecordThatFitsIsReadIntoTheBufferAsTheHeapReadReadsIt() {
        try (IndexStore store = IndexStore.open(dir)) {
            extend(store, 1, 20_000);
            StoredBlock b = extend(store, 1, 19_600);
            ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
            fill(buffer);
            BlockRecord read = store.blockRecord(b.blockHash(), buffer).orElseThrow();
            assertSameRecord(b, read);
            ByteBuffer filter = read.filter();
            assertTrue(filter.isDirect(), "the filter is a region of the lent buffer, not a heap copy");
            assertTrue(filter.isReadOnly());
            // It is the lent buffer's memory: writing there shows through the view.
            buffer.put(32 + RecordCodec.RECORD_FIXED, (byte) 0x5a);
            assertEquals((byte) 0x5a, read.filter().get(0));
        }
    }

    @Test
    void aRecordLargerThanTheBufferAndAHeapBufferAreReadOntoTheHeap() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock b = extend(store, 1, 100_000);
            BlockRecord large = store.blockRecord(b.blockHash(), ByteBuffer.allocateDirect(64 * 1024))
                    .orElseThrow();
            assertSameRecord(b, large);
            assertFalse(large.filter().isDirect());
            StoredBlock small = extend(store, 1, 500);
            assertSameRecord(
                    small,
                    store.blockRecord(small.blockHash(), ByteBuffer.allocate(4096))
                            .orElseThrow());
            assertSameRecord(
                    small,
                    store.blockRecord(small.blockHash(), ByteBuffer.allocateDirect(100))
                            .orElseThrow());
        }
    }

    @Test
    void aBlockThatIsNotIndexedIsEmpty() {
        try (IndexStore store = IndexStore.open(dir)) {
            extend(store, 1, 500);
            assertTrue(store.blockRecord(Sha256Hash.of(new byte[] {7}), ByteBuffer.allocateDirect(4096))
                    .isEmpty());
        }
    }

    @Test
    void theBufferIsReadFromItsPosition() {
        try (IndexStore store = IndexStore.open(dir)) {
            StoredBlock b = extend(store, 1, 3_000);
            ByteBuffer buffer = ByteBuffer.allocateDirect(8192);
            fill(buffer);
            buffer.position(1000).limit(8000);
            assertSameRecord(b, store.blockRecord(b.blockHash(), buffer).orElseThrow());
            for (int i = 0; i < 1000; i++) {
                assertEquals((byte) 0xee, buffer.get(i), "byte " + i + " before the position is left alone");
            }
        }
    }

    private static void fill(ByteBuffer buffer) {
        byte[] junk = new byte[buffer.capacity()];
        Arrays.fill(junk, (byte) 0xee);
        buffer.put(0, junk).clear();
    }

    private static void assertSameRecord(StoredBlock expected, BlockRecord read) {
        assertEquals(expected.blockHash(), read.blockHash());
        assertEquals(expected.height(), read.height());
        assertEquals(expected.filterHash(), read.filterHash());
        ByteBuffer filter = read.filter();
        byte[] bytes = new byte[filter.remaining()];
        filter.get(bytes);
        assertArrayEquals(expected.filter(), bytes);
    }
}
