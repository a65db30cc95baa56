package org.blockfilter.server.index;

import java.util.Objects;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.StoreException;

/**
 * What went wrong in an indexer pass, decided in one place ({@link #of}): the node could not be
 * reached, answered with an error, answered something invalid, or the index itself could not be
 * read or written. Immutable.
 *
 * @param kind    the class of fault
 * @param message what was asked and what came back (never empty)
 */
public record Fault(Kind kind, String message) {
    /** Classes of fault, with the name used in logs and metrics. */
    public enum Kind {
        /** The node could not be reached or did not answer in time. */
        NODE_UNREACHABLE("node_unreachable"),
        /** The node answered with a JSON-RPC error object. */
        NODE_ERROR("node_error_answer"),
        /** The node answered, but the answer is invalid (shape, block, hash, reorg claim). */
        NODE_INVALID("node_invalid_answer"),
        /** The index could not be read or written (damage, disk). */
        STORE("store"),
        /** Anything else: the indexer cannot go on with what it has. */
        INDEX("index");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** A fault of the node rather than of the index. */
        public boolean isNode() {
            return this == NODE_UNREACHABLE || this == NODE_ERROR || this == NODE_INVALID;
        }
    }

    public Fault {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    /** The one classification of what a pass threw. */
    public static Fault of(Throwable e) {
        String message = e.getMessage() == null || e.getMessage().isBlank() ? e.toString() : e.getMessage();
        if (e instanceof RpcException rpc) {
            if (!rpc.isTransportError()) {
                return new Fault(Kind.NODE_ERROR, message);
            }
            // The client names an answer it could read but not use "invalid answer" or "not JSON".
            boolean answered = message.contains("invalid answer") || message.contains("is not JSON");
            return new Fault(answered ? Kind.NODE_INVALID : Kind.NODE_UNREACHABLE, message);
        }
        if (e instanceof NodeAnswerException) {
            return new Fault(Kind.NODE_INVALID, message);
        }
        if (e instanceof StoreException) {
            return new Fault(Kind.STORE, message);
        }
        return new Fault(Kind.INDEX, message);
    }
}
