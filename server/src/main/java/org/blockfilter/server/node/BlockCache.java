package org.blockfilter.server.node;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;

/**
 * A small least-recently-used cache of raw blocks fetched from the node (for the BIP 37 path and
 * P2P {@code getdata}), bounded by total bytes. Blocks are content-addressed by hash, so entries never go stale.
 * Thread-safe; node calls happen outside the lock.
 */
public final class BlockCache {
    private final NodeGateway node;
    private final long maxBytes;
    private final LinkedHashMap<Sha256Hash, byte[]> blocks = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;

    public BlockCache(NodeGateway node, long maxBytes) {
        this.node = node;
        this.maxBytes = maxBytes;
    }

    /** The block's raw bytes (callers must not modify them), from the cache or the node; empty if the node does not know it. */
    public Optional<byte[]> get(Sha256Hash hash) {
        synchronized (this) {
            byte[] cached = blocks.get(hash);
            if (cached != null) {
                return Optional.of(cached);
            }
        }
        Optional<byte[]> fetched = node.rawBlock(hash);
        fetched.ifPresent(raw -> put(hash, raw));
        return fetched;
    }

    /** Bytes currently cached. */
    public synchronized long bytes() {
        return bytes;
    }

    private synchronized void put(Sha256Hash hash, byte[] raw) {
        if (raw.length > maxBytes || blocks.containsKey(hash)) {
            return;
        }
        blocks.put(hash, raw);
        bytes += raw.length;
        Iterator<Map.Entry<Sha256Hash, byte[]>> it = blocks.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            bytes -= it.next().getValue().length;
            it.remove();
        }
    }
}
