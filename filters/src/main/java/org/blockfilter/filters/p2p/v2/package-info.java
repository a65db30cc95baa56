/**
 * BIP 324, the v2 encrypted P2P transport, without sockets: ElligatorSwift keys and the x-only
 * ECDH ({@link org.blockfilter.filters.p2p.v2.EllSwift}), the HKDF key schedule and packet cipher
 * with FSChaCha20 lengths and FSChaCha20Poly1305 rekeying ({@link
 * org.blockfilter.filters.p2p.v2.V2Cipher}), short message type ids ({@link
 * org.blockfilter.filters.p2p.v2.MessageTypes}), and the handshake and message stream over a
 * caller's input and output ({@link org.blockfilter.filters.p2p.v2.V2Transport}), used by the
 * server's P2P listener and the wallet's P2P client.
 */
package org.blockfilter.filters.p2p.v2;
