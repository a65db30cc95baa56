package org.blockfilter.server.p2p.internal;

/**
 * A peer broke the protocol. {@code score} is added to its ban score (a peer that reaches
 * {@link org.blockfilter.server.p2p.P2pConfig#BAN_THRESHOLD} is banned); {@code disconnect}
 * closes the connection even below the threshold (as Core's {@code fDisconnect}). The message
 * names what was wrong; it goes to the log and never to the peer.
 */
public final class Violation extends RuntimeException {
    private final String reason;
    private final int score;
    private final boolean disconnect;

    public Violation(String reason, int score, boolean disconnect, String message) {
        super(message);
        this.reason = reason;
        this.score = score;
        this.disconnect = disconnect;
    }

    /** Breaks the framing or is hostile: ban at once. */
    public static Violation ban(String reason, String message) {
        return new Violation(reason, 100, true, message);
    }

    /** A bad request that Core answers by disconnecting, without a ban. */
    public static Violation disconnect(String reason, String message) {
        return new Violation(reason, 0, true, message);
    }

    /** Misbehaviour that costs {@code score} points; the connection stays open below the threshold. */
    public static Violation score(String reason, int score, String message) {
        return new Violation(reason, score, false, message);
    }

    /** A short stable name for metrics and logs ("bad_checksum", "oversized", ...). */
    public String reason() {
        return reason;
    }

    public int score() {
        return score;
    }

    public boolean disconnect() {
        return disconnect;
    }
}
