package org.blockfilter.server.p2p.internal;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;

/**
 * Transactions that peers relayed through us and the node holds (the node gateway confirms it
 * with {@code getrawtransaction}), by txid and by wtxid, so a peer can check with {@code getdata}
 * that its broadcast went through (our wallet does). Bounded
 * by count and bytes, oldest dropped first. Thread-safe.
 */
public final class RelayedTxs {
    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<Sha256Hash, byte[]> byId = new LinkedHashMap<>();
    private long bytes;

    public RelayedTxs(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    public synchronized void put(Sha256Hash txid, Sha256Hash wtxid, byte[] raw) {
        add(txid, raw);
        if (!wtxid.equals(txid)) {
            add(wtxid, raw);
        }
        Iterator<Map.Entry<Sha256Hash, byte[]>> it = byId.entrySet().iterator();
        while ((byId.size() > maxEntries || bytes > maxBytes) && it.hasNext()) {
            bytes -= it.next().getValue().length;
            it.remove();
        }
    }

    private void add(Sha256Hash id, byte[] raw) {
        byte[] old = byId.put(id, raw.clone());
        bytes += raw.length - (old == null ? 0 : old.length);
    }

    /** The raw transaction (with witnesses) by txid or wtxid; a copy. */
    public synchronized Optional<byte[]> get(Sha256Hash id) {
        byte[] raw = byId.get(id);
        return raw == null ? Optional.empty() : Optional.of(raw.clone());
    }
}
