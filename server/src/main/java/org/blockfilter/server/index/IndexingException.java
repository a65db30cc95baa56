package org.blockfilter.server.index;

/**
 * The indexer cannot go on with what the node gave it: a block that does not parse or does not
 * hash to the hash asked for, an input whose previous output is not in the unspent-script map,
 * a store that belongs to another chain, or a reorg deeper than the kept undo data. The store
 * is left as it was before the failed block (every block is one atomic batch).
 */
public final class IndexingException extends RuntimeException {
    public IndexingException(String message) {
        super(message);
    }

    public IndexingException(String message, Throwable cause) {
        super(message, cause);
    }
}
