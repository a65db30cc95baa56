package org.blockfilter.server.p2p.internal.wire;

import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.FilterHeaders;

/**
 * BIP 157 and protocol limits the transports enforce on what a source sends; the BIP 157
 * constants are {@code filters}' own, named here once for the transports.
 * https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki
 */
public final class Bip157 {
    private Bip157() {}

    /** BIP 158 basic filter type. */
    public static final int BASIC_FILTER_TYPE = Bip158.BASIC_FILTER_TYPE;
    /** Most filters one {@code getcfilters} may ask for. */
    public static final int MAX_CFILTERS = FilterHeaders.MAX_CFILTERS;
    /** Most filter hashes in one {@code cfheaders}. */
    public static final int MAX_CFHEADERS = FilterHeaders.MAX_CFHEADERS;
    /** A checkpoint every this many blocks. */
    public static final int CHECKPOINT_INTERVAL = FilterHeaders.CHECKPOINT_INTERVAL;
    /** Most headers in one {@code headers} message (and one REST headers answer). */
    public static final int MAX_HEADERS = 2000;
    /** Bitcoin Core's MAX_PROTOCOL_MESSAGE_LENGTH; also bounds a serialized block (4M weight units). */
    public static final int MAX_MESSAGE_BYTES = 4_000_000;
    /** Checkpoints that fit in one protocol message. */
    public static final int MAX_CHECKPOINTS = (MAX_MESSAGE_BYTES - 64) / 32;

    public static final int HEADER_BYTES = 80;
    public static final int HASH_BYTES = 32;
}
