package org.blockfilter.wallet.source;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;

/**
 * One untrusted source of chain data for the light wallet: our REST server, or a node over BIP
 * 157 P2P. Nothing a source returns is believed without verification by the sync engine: block
 * headers are checked for proof of work and linkage, filter headers link by link, filters
 * against their headers, and blocks against their headers and merkle roots.
 *
 * <p>Every call has a timeout and throws {@link SourceException} (naming the source) when the
 * source fails, times out or refuses, and its subtype {@link InvalidAnswerException} when the
 * source answers with something malformed or not what was asked. Implementations are
 * thread-safe; no method returns null.
 */
public interface ChainSource extends AutoCloseable {

    /** A name for reports, e.g. {@code rest:http://127.0.0.1:8157} or {@code p2p:127.0.0.1:18444}. */
    String name();

    /** Height of the source's best chain. */
    int tipHeight();

    /**
     * Up to {@code count} (at most 2000) serialized 80-byte block headers of the source's best
     * chain, starting at {@code startHeight}.
     */
    List<byte[]> blockHeaders(int startHeight, int count);

    /**
     * BIP 157 {@code cfheaders} for the basic filter type: the filter header before
     * {@code startHeight} and the filter hashes of {@code startHeight..stopHash} (at most 2000).
     */
    FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash);

    /** BIP 157 {@code cfcheckpt}: the filter header at every 1000th height up to {@code stopHash}. */
    List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash);

    /** BIP 157 {@code cfilter} messages for {@code startHeight..stopHash} (at most 1000), in height order. */
    List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash);

    /** The full block with witnesses, serialized. */
    byte[] block(Sha256Hash blockHash);

    /**
     * Relays a signed transaction and returns its txid only once the source confirmed that its
     * node accepted it (it holds it in its mempool, or announced it). A refusal, or a source that
     * did not take it, is a {@link NotAcceptedException} saying which and why; any other {@link
     * SourceException} means the source failed before it could tell.
     */
    Sha256Hash broadcast(byte[] rawTransaction);

    /**
     * The fee rate the source's node estimates for confirmation within {@code targetBlocks}
     * (1..1008), or none with the reason. A source that serves no estimates says so (the default).
     */
    default FeeEstimate feeEstimate(int targetBlocks) {
        return FeeEstimate.none(targetBlocks, name() + " serves no fee estimates");
    }

    @Override
    void close();

    /** A {@code cfheaders} answer. Filter hashes are in height order. */
    record FilterHashBatch(Sha256Hash previousHeader, List<Sha256Hash> filterHashes) {
        public FilterHashBatch {
            filterHashes = List.copyOf(filterHashes);
        }
    }

    /** A {@code cfilter} answer: the block it claims to be for and the serialized filter. */
    record BlockFilterBytes(Sha256Hash blockHash, byte[] filter) {
        public BlockFilterBytes {
            filter = filter.clone();
        }

        @Override
        public byte[] filter() {
            return filter.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BlockFilterBytes b
                    && blockHash.equals(b.blockHash)
                    && java.util.Arrays.equals(filter, b.filter);
        }

        @Override
        public int hashCode() {
            return blockHash.hashCode() * 31 + java.util.Arrays.hashCode(filter);
        }
    }
}
