/**
 * The server's BIP 157 P2P front: a listener that speaks the Bitcoin wire protocol as a compact
 * block filter node (NODE_COMPACT_FILTERS) for light clients such as BDK's Kyoto, LND's neutrino
 * and our wallet, answering from the same filter index as the REST API. Entry point:
 * {@link org.blockfilter.server.p2p.P2pServer#start}; messages, limits, ban scores and metrics
 * are documented in docs/p2p.md.
 */
package org.blockfilter.server.p2p;
