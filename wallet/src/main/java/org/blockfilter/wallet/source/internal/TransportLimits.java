package org.blockfilter.wallet.source.internal;

/**
 * Protocol limits the transports enforce on what a source sends, besides BIP 157's own (those are
 * {@link org.blockfilter.filters.Bip157}). Constants only.
 */
public final class TransportLimits {
    private TransportLimits() {}

    /**
     * Most block headers in one {@code headers} message: Bitcoin Core's MAX_HEADERS_RESULTS (our
     * server's REST headers answer has the same cap). Not a BIP 157 limit.
     */
    public static final int MAX_HEADERS_RESULTS = 2000;
    /** Bitcoin Core's MAX_PROTOCOL_MESSAGE_LENGTH; also bounds a serialized block (4M weight units). */
    public static final int MAX_MESSAGE_BYTES = 4_000_000;
    /** Checkpoints that fit in one protocol message. */
    public static final int MAX_CHECKPOINTS = (MAX_MESSAGE_BYTES - 64) / 32;

    /** A serialized block header. */
    public static final int HEADER_BYTES = 80;
    /** A hash on the wire. */
    public static final int HASH_BYTES = 32;
}
