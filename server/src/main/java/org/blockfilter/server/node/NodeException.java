package org.blockfilter.server.node;

import java.util.Objects;

/** The node refused a request ({@link Kind#REJECTED}) or could not be reached ({@link Kind#UNAVAILABLE}). */
public final class NodeException extends RuntimeException {
    public enum Kind {
        REJECTED,
        UNAVAILABLE
    }

    private final Kind kind;

    public NodeException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public Kind kind() {
        return kind;
    }
}
