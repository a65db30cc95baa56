package org.blockfilter.server.index;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link IngestStats}; thread-safe, updated by every stage. */
final class IngestMetrics {
    final LongAdder blocks = new LongAdder();
    final LongAdder txs = new LongAdder();
    final LongAdder inputs = new LongAdder();
    final LongAdder fetchNanos = new LongAdder();
    final LongAdder parseNanos = new LongAdder();
    final LongAdder lookupNanos = new LongAdder();
    final LongAdder buildNanos = new LongAdder();
    final LongAdder writeNanos = new LongAdder();
    final LongAdder prevoutsFromNode = new LongAdder();
    private final AtomicLong peakBytesAhead = new AtomicLong();

    void bytesAhead(long bytes) {
        peakBytesAhead.accumulateAndGet(bytes, Math::max);
    }

    IngestStats snapshot() {
        return new IngestStats(
                blocks.sum(),
                txs.sum(),
                inputs.sum(),
                fetchNanos.sum(),
                parseNanos.sum(),
                lookupNanos.sum(),
                buildNanos.sum(),
                writeNanos.sum(),
                peakBytesAhead.get(),
                prevoutsFromNode.sum());
    }
}
