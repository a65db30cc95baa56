package org.blockfilter.wallet.source.internal;

/**
 * BIP 157 and protocol limits the transports enforce on what a source sends.
 * https://github.com/bitcoin/bips/blob/master/bip-0157.mediawiki
 */
public final class Bip157 {
    private Bip157() {
    }

    /** BIP 158 basic filter type. */
    public static final int BASIC_FILTER_TYPE = 0;
    /** Most filters one {@code getcfilters} may ask for. */
    public static final int MAX_CFILTERS = 1000;
    /** Most filter hashes in one {@code cfheaders}. */
    public static final int MAX_CFHEADERS = 2000;
    /** Most headers in one {@code headers} message (and one REST headers answer). */
    public static final int MAX_HEADERS = 2000;
    /** Bitcoin Core's MAX_PROTOCOL_MESSAGE_LENGTH; also bounds a serialized block (4M weight units). */
    public static final int MAX_MESSAGE_BYTES = 4_000_000;
    /** Checkpoints that fit in one protocol message. */
    public static final int MAX_CHECKPOINTS = (MAX_MESSAGE_BYTES - 64) / 32;
    public static final int HEADER_BYTES = 80;
    public static final int HASH_BYTES = 32;
}
