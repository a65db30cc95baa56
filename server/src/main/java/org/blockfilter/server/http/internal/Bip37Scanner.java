package org.blockfilter.server.http.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomFilterFormatException;
import org.blockfilter.filters.bloom.MerkleBlockMatch;
import org.blockfilter.server.node.BlockCache;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.read.FilterIndexReader;

/**
 * The legacy BIP 37 path: scans best-chain blocks of a height range with a client's
 * {@code filterload} filter, as a full node serving {@code merkleblock}s would, and counts what
 * it costs the server (thread CPU time and bytes). Enforces BIP 37's filter limits, a block
 * limit, a work budget (blocks x filter bytes) checked before any work, and a CPU budget after
 * which it stops and says where to continue. No Javalin; thread-safe.
 */
public final class Bip37Scanner {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final FilterIndexReader index;
    private final FilterService service;
    private final BlockCache blocks;
    private final int maxBlocks;
    private final long workBudget;
    private final long cpuBudgetNanos;

    public Bip37Scanner(
            FilterIndexReader index,
            FilterService service,
            NodeGateway node,
            int maxBlocks,
            long workBudget,
            long cpuBudgetNanos,
            long cacheBytes) {
        this.index = Objects.requireNonNull(index, "index");
        this.service = Objects.requireNonNull(service, "service");
        this.blocks = new BlockCache(node, cacheBytes);
        this.maxBlocks = maxBlocks;
        this.workBudget = workBudget;
        this.cpuBudgetNanos = cpuBudgetNanos;
    }

    /** One scanned block: the merkleblock message and the matched transactions (wire bytes). */
    public record ScannedBlock(int height, Sha256Hash hash, byte[] merkleBlock, List<byte[]> transactions) {}

    /**
     * @param complete   false if the CPU budget ran out; then nextHeight is where to continue
     * @param cpuNanos   server thread CPU time spent on the scan (fetch, parse, match, serialize)
     * @param bytes      payload bytes a BIP 37 peer would receive (merkleblocks + transactions)
     */
    public record ScanResult(
            List<ScannedBlock> blocks,
            int scannedBlocks,
            long cpuNanos,
            long bytes,
            boolean complete,
            Integer nextHeight) {}

    /** Core's limits come from the filters module's strict parser; its errors become typed 400s. */
    private static Bip37Filter parse(byte[] filterload) {
        try {
            return Bip37Filter.parse(filterload);
        } catch (BloomFilterFormatException e) {
            String code = e.getMessage().contains("exceeds")
                    ? switch (e.field()) {
                        case "filter length" -> "filter_too_large";
                        case "nHashFuncs" -> "too_many_hash_functions";
                        default -> "bad_filter";
                    }
                    : "bad_filter";
            throw new BadRequestException(code, "filterload: " + e.getMessage());
        }
    }

    public ScanResult scan(byte[] filterload, int startHeight, int stopHeight) {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        if (stopHeight < startHeight) {
            throw new BadRequestException(
                    "stop_before_start", "stopHeight " + stopHeight + " is below startHeight " + startHeight);
        }
        long count = (long) stopHeight - startHeight + 1;
        if (count > maxBlocks) {
            throw new BadRequestException(
                    "range_too_large", "range of " + count + " blocks exceeds the BIP 37 scan limit of " + maxBlocks);
        }
        Bip37Filter filter = parse(filterload);
        long work = count * Math.max(1, filter.sizeBytes());
        if (work > workBudget) {
            throw new BadRequestException(
                    "work_budget_exceeded",
                    "scan of " + count + " blocks with a "
                            + filter.sizeBytes() + "-byte filter costs " + work
                            + " (blocks x filter bytes), over the budget of "
                            + workBudget + "; scan fewer blocks");
        }
        if (stopHeight > index.tip().height()) {
            throw service.heightNotIndexed(stopHeight);
        }
        List<ScannedBlock> result = new ArrayList<>();
        long bytes = 0;
        int scanned = 0;
        for (int h = startHeight; h <= stopHeight; h++) {
            if (scanned > 0 && THREADS.getCurrentThreadCpuTime() - cpuStart > cpuBudgetNanos) {
                return new ScanResult(result, scanned, THREADS.getCurrentThreadCpuTime() - cpuStart, bytes, false, h);
            }
            final int height = h;
            Sha256Hash hash = index.hashAt(h).orElseThrow(() -> service.heightNotIndexed(height));
            byte[] raw = blocks.get(hash)
                    .orElseThrow(() ->
                            new UnavailableException("node_missing_block", "the node does not have block " + hash));
            Block block;
            MerkleBlockMatch match;
            try {
                block = Block.read(ByteBuffer.wrap(raw));
                match = filter.filterBlock(block);
            } catch (ProtocolException | java.nio.BufferUnderflowException | IllegalArgumentException e) {
                throw new UnavailableException(
                        "node_bad_block", "the node sent an unusable block " + hash + ": " + e.getMessage());
            }
            scanned++;
            // A node answers every MSG_FILTERED_BLOCK with a merkleblock, matches or not.
            byte[] merkle = match.serialize();
            List<byte[]> txs = new ArrayList<>(match.matchedIndices().size());
            bytes += merkle.length;
            for (int index : match.matchedIndices()) {
                Transaction tx = block.getTransactions().get(index);
                byte[] txBytes = tx.serialize();
                txs.add(txBytes);
                bytes += txBytes.length;
            }
            result.add(new ScannedBlock(h, hash, merkle, txs));
        }
        return new ScanResult(result, scanned, THREADS.getCurrentThreadCpuTime() - cpuStart, bytes, true, null);
    }
}
