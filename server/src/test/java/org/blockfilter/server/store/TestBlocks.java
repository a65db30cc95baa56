package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;

/**
 * Block records for store tests: chains of blocks whose hashes really are the double-SHA256 of
 * their headers, connected with no UTXO changes. Stateless.
 */
public final class TestBlocks {
    private TestBlocks() {}

    /** A block on top of {@code prev} with the 3-byte filter {1, height, nonce}. */
    public static StoredBlock block(int height, Sha256Hash prev, int nonce) {
        return block(height, prev, nonce, 3);
    }

    /**
     * A block on top of {@code prev}; {@code nonce} tells apart blocks at one height (forks). Its
     * filter has {@code filterBytes} (at least 3) bytes: 1, height, nonce, then the height again.
     */
    public static StoredBlock block(int height, Sha256Hash prev, int nonce, int filterBytes) {
        byte[] header = ByteBuffer.allocate(StoredBlock.HEADER_SIZE)
                .putInt(1)
                .put(prev.serialize())
                .putInt(76, nonce)
                .array();
        Sha256Hash hash = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
        byte[] filter = new byte[Math.max(3, filterBytes)];
        Arrays.fill(filter, (byte) height);
        filter[0] = 1;
        filter[2] = (byte) nonce;
        Sha256Hash filterHash = Sha256Hash.twiceOf(filter);
        return new StoredBlock(
                hash, height, header, filterHash, Sha256Hash.of(filterHash.getBytes()), Sha256Hash.ZERO_HASH, filter);
    }

    /** Connects a block with a 3-byte filter on top of the store's tip (genesis when empty). */
    public static StoredBlock extend(IndexStore store, int nonce) {
        return extend(store, nonce, 3);
    }

    /** Connects a block with a filter of {@code filterBytes} on top of the store's tip. */
    public static StoredBlock extend(IndexStore store, int nonce, int filterBytes) {
        Optional<ChainTip> tip = store.tip();
        StoredBlock b = block(
                tip.map(t -> t.height() + 1).orElse(0),
                tip.map(ChainTip::hash).orElse(Sha256Hash.ZERO_HASH),
                nonce,
                filterBytes);
        store.connect(b, List.of(), List.of(), false);
        return b;
    }

    /**
     * Connects {@code count} blocks on top of the store's tip, all with {@code nonce} (genesis
     * with nonce 0, so that chains of different nonces share it), and returns them.
     */
    public static List<StoredBlock> extend(IndexStore store, int count, int nonce, int filterBytes) {
        List<StoredBlock> blocks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            blocks.add(extend(store, store.tip().isEmpty() ? 0 : nonce, filterBytes));
        }
        return blocks;
    }

    /** A chain of {@code length} blocks from genesis in an empty store. */
    public static List<StoredBlock> chain(IndexStore store, int length, int nonce) {
        return extend(store, length, nonce, 3);
    }
}
