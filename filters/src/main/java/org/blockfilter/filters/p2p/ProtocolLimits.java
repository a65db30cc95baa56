package org.blockfilter.filters.p2p;

/**
 * Bitcoin P2P protocol limits that are not BIP 157's (those are {@link org.blockfilter.filters.Bip157}),
 * named as Bitcoin Core names them. Constants only.
 */
public final class ProtocolLimits {
    private ProtocolLimits() {}

    /**
     * Most block headers in one {@code headers} message: Bitcoin Core's MAX_HEADERS_RESULTS (our
     * server's REST headers answer has the same cap). A block-header batch size, not a BIP 157 limit.
     */
    public static final int MAX_HEADERS_RESULTS = 2000;
    /** Bitcoin Core's MAX_PROTOCOL_MESSAGE_LENGTH; also bounds a serialized block (4M weight units). */
    public static final int MAX_PROTOCOL_MESSAGE_LENGTH = 4_000_000;
    /** Bitcoin Core's MAX_INV_SZ: most entries in {@code inv}, {@code getdata}, {@code notfound}. */
    public static final int MAX_INV_SZ = 50_000;
    /**
     * Most locator hashes the codec decodes: btcd's MaxBlockLocatorsPerMsg, so that a btcd peer's
     * message still parses. A node that follows Core disconnects above {@link #MAX_LOCATOR_SZ}.
     */
    public static final int MAX_DECODED_LOCATOR = 500;
    /** Bitcoin Core's MAX_LOCATOR_SZ: a {@code getheaders} with a longer locator is misbehaviour. */
    public static final int MAX_LOCATOR_SZ = 101;
    /** Filter-header checkpoints that fit in one protocol message. */
    public static final int MAX_CHECKPOINTS = (MAX_PROTOCOL_MESSAGE_LENGTH - 64) / 32;
    /** A serialized block header. */
    public static final int HEADER_BYTES = 80;
    /** A hash on the wire. */
    public static final int HASH_BYTES = 32;
}
