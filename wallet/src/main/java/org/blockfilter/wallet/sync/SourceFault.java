package org.blockfilter.wallet.sync;

/**
 * Why a source was dropped: it {@link Kind#LIED} (sent something that verification, a dispute or
 * its own earlier answers prove wrong), is on a {@link Kind#WEAKER_CHAIN} (valid, with less work),
 * is on {@link Kind#OTHER_NETWORK another network} (or a chain without the wallet's first block),
 * or {@link Kind#FAILED} to answer (unreachable, refused, timed out, silent). {@code height} is
 * where it happened, -1 if not tied to one. Decided in one place, {@code SourcePool#classify}.
 * Immutable.
 */
public record SourceFault(String source, Kind kind, int height, String reason) {
    /** The verdict on a dropped source, from the worst. */
    public enum Kind {
        /**
         * Sent something proven wrong: an invalid header, filter or block, or an answer contradicting a verified one.
         */
        LIED,
        /** Valid, but on a chain with less work than another source's. */
        WEAKER_CHAIN,
        /** On another network, or on a chain without the wallet's first block. */
        OTHER_NETWORK,
        /** Did not answer: unreachable, refused, timed out or silent. */
        FAILED
    }

    @Override
    public String toString() {
        return source + " " + kind + (height >= 0 ? " at height " + height : "") + ": " + reason;
    }
}
