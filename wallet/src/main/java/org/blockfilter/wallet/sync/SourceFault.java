package org.blockfilter.wallet.sync;

/**
 * Why a source was dropped: it {@link Kind#LIED} (served data that verification or a dispute
 * proved wrong), is on a {@link Kind#WEAKER_CHAIN}, or {@link Kind#FAILED} (unreachable,
 * timed out, malformed answer). {@code height} is where it happened, -1 if not tied to one.
 * Immutable.
 */
public record SourceFault(String source, Kind kind, int height, String reason) {
    public enum Kind {
        LIED,
        WEAKER_CHAIN,
        FAILED
    }

    @Override
    public String toString() {
        return source + " " + kind + (height >= 0 ? " at height " + height : "") + ": " + reason;
    }
}
