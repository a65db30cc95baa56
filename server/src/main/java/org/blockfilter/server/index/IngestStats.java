package org.blockfilter.server.index;

/**
 * What the indexer's stages have done since it was created: blocks, transactions and inputs
 * connected, and the wall time each stage spent on them (the stages run on their own threads
 * and overlap, so the times add up to more than the elapsed time). {@code fetch} is summed over
 * the RPC workers; {@code parse}, {@code lookup} (prevout scripts from the overlay or the store)
 * and {@code build} (filter and header) run on the prepare thread, {@code write} (the RocksDB
 * batch) on the indexer's thread. {@code peakBytesAhead} is the most raw block bytes ever held
 * fetched and not yet parsed. Immutable.
 */
public record IngestStats(
        long blocks,
        long txs,
        long inputs,
        long fetchNanos,
        long parseNanos,
        long lookupNanos,
        long buildNanos,
        long writeNanos,
        long peakBytesAhead,
        long prevoutsFromNode) {

    /** This minus {@code earlier}, for the rates of one pass (the peak stays the all-time one). */
    IngestStats since(IngestStats earlier) {
        return new IngestStats(
                blocks - earlier.blocks,
                txs - earlier.txs,
                inputs - earlier.inputs,
                fetchNanos - earlier.fetchNanos,
                parseNanos - earlier.parseNanos,
                lookupNanos - earlier.lookupNanos,
                buildNanos - earlier.buildNanos,
                writeNanos - earlier.writeNanos,
                peakBytesAhead,
                prevoutsFromNode - earlier.prevoutsFromNode);
    }
}
