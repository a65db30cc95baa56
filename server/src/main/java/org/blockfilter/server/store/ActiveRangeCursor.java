package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.util.NoSuchElementException;

/**
 * Best-chain blocks of one range, read from one snapshot as they are asked for (see
 * {@link IndexStore#openActiveRange}). Not thread-safe: one owner, the thread that opened it.
 */
public interface ActiveRangeCursor extends AutoCloseable {
    /** Height of the range's last block. */
    int stopHeight();

    /** Whether the range has a block after the ones read so far. */
    boolean hasNext();

    /**
     * The next block of the range.
     *
     * @throws NoSuchElementException after the last one or once closed
     */
    StoredBlock next();

    /** {@link #next()} undecoded (see {@link IndexStore#blockRecord}); same contract. */
    BlockRecord nextRecord();

    /**
     * Puts the next block into {@code out} (a direct buffer, in fill mode) as block hash
     * (32, wire order), CompactSize filter length and filter, read straight into {@code out}
     * with no copy on the heap, and moves on. Returns false, and stays at that block, when
     * its record does not fit into {@code out}'s remaining space: then {@code out}'s limit
     * may have moved (set it back) and the bytes after its position are undefined.
     *
     * @throws NoSuchElementException after the last one or once closed
     */
    boolean writeNextEntry(ByteBuffer out);

    /** Releases the snapshot and the read lock; idempotent. */
    @Override
    void close();
}
