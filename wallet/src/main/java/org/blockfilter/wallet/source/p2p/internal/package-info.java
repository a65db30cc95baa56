/**
 * Not API. The small Bitcoin P2P client under {@code P2pSource}: message framing, strict codecs
 * for the handful of messages a BIP 157 light client needs, one peer connection, and the
 * announce-then-serve broadcast of a transaction with the peer's verdict.
 */
package org.blockfilter.wallet.source.p2p.internal;
