package org.blockfilter.wallet.source;

/**
 * A source answered a broadcast and did not confirm that its node accepted the transaction: the
 * node refused it (a {@code reject}, an RPC error, an HTTP 4xx with the node's reason), or it did
 * not take it (a peer that never asked for it, or asked and then neither holds it nor announced
 * it). The message says which and why.
 */
public class NotAcceptedException extends SourceException {
    /**
     * {@code source} did not confirm the transaction; the message says what its node said, or that it never took it.
     */
    public NotAcceptedException(String source, String message) {
        super(source, message);
    }
}
