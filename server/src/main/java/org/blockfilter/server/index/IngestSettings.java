package org.blockfilter.server.index;

/**
 * How far the indexer reads ahead of the block it commits: {@code fetchThreads} RPC workers
 * (each {@code getblockhash} + {@code getblock}), at most {@code maxBlocksAhead} blocks and
 * {@code maxBytesAhead} raw bytes fetched and waiting for the parse stage. A worker that has a
 * block which does not fit waits with it (unless it is the very next block), so the heap held
 * by prefetching is at most {@code maxBytesAhead} plus one block per worker (a block is at most
 * 4 MB raw; its JSON answer, 8 MB of hex, lives only during the call). Immutable.
 */
public record IngestSettings(int fetchThreads, int maxBlocksAhead, long maxBytesAhead) {
    /** 4 workers, 32 blocks, 64 MiB: with 4 MB blocks, ~16 blocks ahead and ~80 MB of heap. */
    public static final IngestSettings DEFAULT = new IngestSettings(4, 32, 64L << 20);

    public IngestSettings {
        if (fetchThreads < 1 || fetchThreads > 64) {
            throw new IllegalArgumentException("fetchThreads must be 1-64: " + fetchThreads);
        }
        if (maxBlocksAhead < 1) {
            throw new IllegalArgumentException("maxBlocksAhead must be >= 1: " + maxBlocksAhead);
        }
        if (maxBytesAhead < 1) {
            throw new IllegalArgumentException("maxBytesAhead must be >= 1: " + maxBytesAhead);
        }
    }
}
