package org.blockfilter.wallet.source.p2p;

/**
 * Which P2P transport {@link P2pSource} speaks: BIP 324 v2 with a fallback to v1 for peers that
 * close the connection at our v2 key (the BIP's advice for v1-only peers such as btcd without
 * {@code --v2transport}), or one of the two only.
 */
public enum P2pTransport {
    /** v2 first; v1 on a fresh connection when the peer does not speak v2. */
    AUTO,
    /** v2 or fail: a peer that does not speak it is a failed connection. */
    V2,
    /** v1 only (plaintext). */
    V1
}
