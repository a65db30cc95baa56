package org.blockfilter.server.http.internal;

import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.blockfilter.server.http.NodeGateway;
import org.blockfilter.server.index.FilterIndexReader;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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

    public Bip37Scanner(FilterIndexReader index, FilterService service, NodeGateway node, int maxBlocks,
                        long workBudget, long cpuBudgetNanos, long cacheBytes) {
        this.index = Objects.requireNonNull(index, "index");
        this.service = Objects.requireNonNull(service, "service");
        this.blocks = new BlockCache(node, cacheBytes);
        this.maxBlocks = maxBlocks;
        this.workBudget = workBudget;
        this.cpuBudgetNanos = cpuBudgetNanos;
    }

    /** One scanned block: the merkleblock message and the matched transactions (wire bytes). */
    public record ScannedBlock(int height, Sha256Hash hash, byte[] merkleBlock, List<byte[]> transactions) {
    }

    /**
     * @param complete   false if the CPU budget ran out; then nextHeight is where to continue
     * @param cpuNanos   server thread CPU time spent on the scan (fetch, parse, match, serialize)
     * @param bytes      payload bytes a BIP 37 peer would receive (merkleblocks + transactions)
     */
    public record ScanResult(List<ScannedBlock> blocks, int scannedBlocks, long cpuNanos, long bytes,
                             boolean complete, Integer nextHeight) {
    }

    public ScanResult scan(byte[] filterload, int startHeight, int stopHeight) {
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        if (stopHeight < startHeight) {
            throw new BadRequestException("stop_before_start",
                    "stopHeight " + stopHeight + " is below startHeight " + startHeight);
        }
        long count = (long) stopHeight - startHeight + 1;
        if (count > maxBlocks) {
            throw new BadRequestException("range_too_large",
                    "range of " + count + " blocks exceeds the BIP 37 scan limit of " + maxBlocks);
        }
        Bip37Filter filter = Bip37Filter.parse(filterload);
        long work = count * Math.max(1, filter.dataLength());
        if (work > workBudget) {
            throw new BadRequestException("work_budget_exceeded", "scan of " + count + " blocks with a "
                    + filter.dataLength() + "-byte filter costs " + work + " (blocks x filter bytes), over the budget of "
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
            byte[] raw = blocks.get(hash).orElseThrow(
                    () -> new UnavailableException("node_missing_block", "the node does not have block " + hash));
            Block block;
            try {
                block = Block.read(ByteBuffer.wrap(raw));
            } catch (ProtocolException | java.nio.BufferUnderflowException e) {
                throw new UnavailableException("node_bad_block", "the node sent an unreadable block " + hash);
            }
            Bip37Matcher.Match match = Bip37Matcher.match(block, filter);
            scanned++;
            // A node answers every MSG_FILTERED_BLOCK with a merkleblock, matches or not.
            byte[] merkle = match.merkleBlock().serialize();
            List<byte[]> txs = new ArrayList<>(match.transactions().size());
            bytes += merkle.length;
            for (Transaction tx : match.transactions()) {
                byte[] txBytes = tx.serialize();
                txs.add(txBytes);
                bytes += txBytes.length;
            }
            result.add(new ScannedBlock(h, hash, merkle, txs));
        }
        return new ScanResult(result, scanned, THREADS.getCurrentThreadCpuTime() - cpuStart, bytes, true, null);
    }
}
