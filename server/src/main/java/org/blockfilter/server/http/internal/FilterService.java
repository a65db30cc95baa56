package org.blockfilter.server.http.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.server.node.NodeException;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.store.ChainTip;

/**
 * The read side of our API: filters, ranges, headers, checkpoints, blocks and relay, with BIP 157
 * semantics and the errors that tell "unknown" (404) from "not indexed yet" (503). Inputs are
 * already syntactically valid (the controllers check them). No Javalin; thread-safe.
 */
public final class FilterService {
    private final FilterIndexReader index;
    private final NodeGateway node;
    private final String network;

    public FilterService(FilterIndexReader index, NodeGateway node, String network) {
        this.index = Objects.requireNonNull(index, "index");
        this.node = Objects.requireNonNull(node, "node");
        this.network = Objects.requireNonNull(network, "network");
    }

    /**
     * What {@code /api/v1/status} reports, from the index and the last answers of the node only.
     * {@code nodeHeightAgeMs} is the age of {@code nodeHeight}; {@code nodeFailingSince} (ISO-8601)
     * and {@code nodeError} are null while the node answers properly; {@code damaged} lists the
     * damaged files reads have hit, and while it is not empty {@code synced} is false.
     */
    public record Status(
            String network,
            int indexedHeight,
            String indexedHash,
            Integer nodeHeight,
            boolean synced,
            Long nodeHeightAgeMs,
            String nodeFailingSince,
            String nodeError,
            List<Damage> damaged) {}

    /** A damaged index file as status shows it. */
    public record Damage(String family, String file, String heights, String error) {}

    public record Checkpoints(Sha256Hash stopHash, int stopHeight, List<Sha256Hash> headers) {}

    public record Headers(int lastHeight, List<byte[]> headers) {}

    public record RawBlock(Sha256Hash hash, OptionalInt height, byte[] block) {}

    public Status status() {
        ChainTip tip = index.tip();
        Integer nodeHeight = nodeHeightOrNull();
        String hash = tip.height() < 0 ? null : tip.hash().toString();
        List<Damage> damaged = index.damage().stream()
                .map(d -> new Damage(d.family(), d.file(), d.heights(), d.error()))
                .toList();
        Optional<org.blockfilter.server.index.NodeHealth.Snapshot> health =
                node.health().map(org.blockfilter.server.index.NodeHealth::snapshot);
        java.time.Instant now = java.time.Instant.now();
        return new Status(
                network,
                tip.height(),
                hash,
                nodeHeight,
                nodeHeight != null && tip.height() >= nodeHeight && damaged.isEmpty(),
                health.flatMap(h -> h.nodeHeightAgeMillis(now)).orElse(null),
                health.flatMap(h -> h.failingSince()).map(Object::toString).orElse(null),
                health.flatMap(h -> h.lastFault())
                        .map(f -> f.kind().label() + ": " + f.message())
                        .orElse(null),
                damaged);
    }

    public IndexedFilter filter(Sha256Hash blockHash) {
        return index.filter(blockHash).orElseThrow(() -> unknownBlock(blockHash));
    }

    public IndexedFilter filter(int height) {
        Sha256Hash hash = index.hashAt(height).orElseThrow(() -> heightNotIndexed(height));
        // A reorg between the two reads leaves the old block's filter, still correct for its hash.
        return filter(hash);
    }

    /**
     * Best-chain filters from startHeight to stopHash (BIP 157 getcfilters / getcfheaders), as a
     * cursor over one snapshot so that large answers are streamed, not held whole. Every
     * error (400, 404, 503) is thrown here, before the caller writes a byte; the caller closes the
     * cursor, on this thread.
     */
    public FilterIndexReader.RangeCursor openRange(int startHeight, Sha256Hash stopHash, int maxBlocks) {
        checkRange(startHeight, stopHash, maxBlocks);
        return index.openRange(startHeight, stopHash).orElseThrow(FilterService::indexChanged);
    }

    private void checkRange(int startHeight, Sha256Hash stopHash, int maxBlocks) {
        OptionalInt stopHeight = index.heightOf(stopHash);
        if (stopHeight.isEmpty()) {
            if (index.filter(stopHash).isPresent()) {
                throw new NotFoundException("not_on_best_chain", "stop_hash " + stopHash + " is not on the best chain");
            }
            throw unknownBlock(stopHash);
        }
        int stop = stopHeight.getAsInt();
        if (stop < startHeight) {
            throw new BadRequestException(
                    "stop_before_start", "stop_hash is at height " + stop + ", below start_height " + startHeight);
        }
        long count = (long) stop - startHeight + 1;
        if (count > maxBlocks) {
            throw new BadRequestException(
                    "range_too_large", "range of " + count + " blocks exceeds the limit of " + maxBlocks);
        }
    }

    private static UnavailableException indexChanged() {
        return new UnavailableException("index_changed", "the best chain changed during the request; retry");
    }

    /** Filter headers at heights CHECKPOINT_INTERVAL, 2 x CHECKPOINT_INTERVAL, ... up to stopHash (default: the tip). */
    public Checkpoints checkpoints(Optional<Sha256Hash> stop) {
        ChainTip tip = index.tip();
        if (stop.isEmpty() && tip.height() < 0) {
            throw new UnavailableException("index_behind", "nothing is indexed yet");
        }
        Sha256Hash stopHash = stop.orElse(tip.hash());
        OptionalInt stopHeight = index.heightOf(stopHash);
        if (stopHeight.isEmpty()) {
            if (index.filter(stopHash).isPresent()) {
                throw new NotFoundException("not_on_best_chain", "stop_hash " + stopHash + " is not on the best chain");
            }
            throw unknownBlock(stopHash);
        }
        List<Sha256Hash> headers = new ArrayList<>();
        for (int h = Bip157.CHECKPOINT_INTERVAL; h <= stopHeight.getAsInt(); h += Bip157.CHECKPOINT_INTERVAL) {
            Optional<IndexedFilter> f = index.hashAt(h).flatMap(index::filter);
            if (f.isEmpty()) {
                throw new UnavailableException("index_changed", "the best chain changed during the request; retry");
            }
            headers.add(f.get().header());
        }
        if (!index.heightOf(stopHash).equals(stopHeight)) {
            throw new UnavailableException("index_changed", "the best chain changed during the request; retry");
        }
        return new Checkpoints(stopHash, stopHeight.getAsInt(), headers);
    }

    /** Up to {@code count} 80-byte headers from startHeight, fewer if the indexed chain ends first. */
    public Headers headers(int startHeight, int count) {
        int tip = index.tip().height();
        if (startHeight > tip) {
            throw heightNotIndexed(startHeight);
        }
        int last = (int) Math.min((long) startHeight + count - 1, tip);
        List<byte[]> headers = new ArrayList<>(last - startHeight + 1);
        for (int h = startHeight; h <= last; h++) {
            Optional<byte[]> header = index.hashAt(h).flatMap(index::blockHeader);
            if (header.isEmpty()) {
                break; // the chain shrank in a reorg while we read it
            }
            headers.add(header.get());
        }
        return new Headers(startHeight + headers.size() - 1, headers);
    }

    public RawBlock block(Sha256Hash hash) {
        byte[] raw =
                node.rawBlock(hash).orElseThrow(() -> new NotFoundException("unknown_block", "unknown block " + hash));
        return new RawBlock(hash, index.heightOf(hash), raw);
    }

    /** The node's fee-rate estimates for {@code targets}, as {@link NodeGateway#feeEstimates} gives them. */
    public org.blockfilter.server.node.FeeEstimates feeEstimates(List<Integer> targets) {
        return node.feeEstimates(targets);
    }

    public Sha256Hash relay(byte[] rawTx) {
        return node.relay(rawTx);
    }

    /** 503 if the node knows the block (the index will get there), else 404. */
    public RuntimeException unknownBlock(Sha256Hash hash) {
        if (node.hasBlock(hash)) {
            return new UnavailableException("index_behind", "block " + hash + " is not indexed yet");
        }
        return new NotFoundException("unknown_block", "unknown block " + hash);
    }

    /**
     * 503 if the node's chain reaches the height (the index will get there) or the node cannot be
     * reached to tell, else 404.
     */
    public RuntimeException heightNotIndexed(int height) {
        int tip = index.tip().height();
        Integer nodeHeight = nodeHeightOrNull();
        if (nodeHeight == null) {
            return new UnavailableException(
                    "node_unavailable",
                    "height " + height + " is above the index tip " + tip
                            + " and the node cannot be reached to tell whether it exists; retry later");
        }
        if (height <= nodeHeight) {
            return new UnavailableException(
                    "index_behind",
                    "height " + height + " is not indexed yet (indexed up to " + tip + ", node at " + nodeHeight + ")");
        }
        return new NotFoundException("unknown_height", "no block at height " + height + " (best height " + tip + ")");
    }

    /** The node's height, or null if the node cannot be reached. */
    public Integer nodeHeightOrNull() {
        try {
            return node.nodeHeight();
        } catch (NodeException e) {
            return null;
        }
    }

    public FilterIndexReader index() {
        return index;
    }
}
