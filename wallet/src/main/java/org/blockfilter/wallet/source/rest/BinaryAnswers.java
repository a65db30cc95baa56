package org.blockfilter.wallet.source.rest;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.p2p.ProtocolLimits;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.filters.wire.WireReader;
import org.blockfilter.wallet.source.ChainSource.BlockFilterBytes;
import org.blockfilter.wallet.source.ChainSource.FilterHashBatch;

/**
 * Strict decoders of the REST API's binary representations; each throws {@link
 * WireFormatException} naming the field and offset. Stateless.
 */
final class BinaryAnswers {
    private BinaryAnswers() {}

    /** 32-byte prev header + CompactSize count (1..{@link Bip157#MAX_CFHEADERS}) + count x 32-byte filter hashes, as {@code cfheaders}. */
    static FilterHashBatch filterHeaders(byte[] body) {
        WireReader r = new WireReader(body);
        Sha256Hash prev = r.hash("prevHeader");
        int n = r.count("count", Bip157.MAX_CFHEADERS, ProtocolLimits.HASH_BYTES);
        if (n == 0) {
            throw r.error("count", 0, "no filter hashes");
        }
        List<Sha256Hash> hashes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            hashes.add(r.hash("filterHashes[" + i + "]"));
        }
        r.end("filter-headers");
        return new FilterHashBatch(prev, hashes);
    }

    /** CompactSize count + count x 32-byte filter headers. */
    static List<Sha256Hash> checkpoints(byte[] body, int maxCheckpoints) {
        WireReader r = new WireReader(body);
        int n = r.count("count", maxCheckpoints, ProtocolLimits.HASH_BYTES);
        List<Sha256Hash> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(r.hash("checkpoints[" + i + "]"));
        }
        r.end("checkpoints");
        return List.copyOf(out);
    }

    /**
     * Per block, in height order: 32-byte block hash + CompactSize length + filter bytes. At
     * least one and at most {@link Bip157#MAX_CFILTERS} blocks; the last must be {@code stopHash}.
     */
    static List<BlockFilterBytes> filters(byte[] body, Sha256Hash stopHash, int maxFilterBytes) {
        WireReader r = new WireReader(body);
        List<BlockFilterBytes> out = new ArrayList<>();
        while (r.remaining() > 0) {
            if (out.size() == Bip157.MAX_CFILTERS) {
                throw r.error("filters", null, "more than " + Bip157.MAX_CFILTERS + " filters");
            }
            int i = out.size();
            Sha256Hash hash = r.hash("filters[" + i + "].blockHash");
            byte[] filter = r.varBytes("filters[" + i + "].filter", maxFilterBytes);
            out.add(new BlockFilterBytes(hash, filter));
        }
        if (out.isEmpty()) {
            throw r.error("filters", null, "empty answer");
        }
        Sha256Hash last = out.get(out.size() - 1).blockHash();
        if (!last.equals(stopHash)) {
            throw r.error("filters", last, "last filter is for that block, not the stop hash " + stopHash);
        }
        return List.copyOf(out);
    }
}
