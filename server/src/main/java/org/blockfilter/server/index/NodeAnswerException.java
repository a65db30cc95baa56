package org.blockfilter.server.index;

/**
 * The node answered something that cannot be true: a block that does not parse, hashes to another
 * block or does not match its own merkle root, a block it lists but does not return, a reorg it
 * claims but cannot show. Nothing of it is written; the indexer asks again with back-off. The
 * message names what was asked and what came back.
 */
public final class NodeAnswerException extends RuntimeException {
    public NodeAnswerException(String message) {
        super(message);
    }

    public NodeAnswerException(String message, Throwable cause) {
        super(message, cause);
    }
}
