/**
 * The BIP 157 P2P transport: {@link org.blockfilter.wallet.source.p2p.P2pSource} talks to one
 * node (btcd in CI) with a small focused client (see docs/wallet-p2p.md for why not bitcoinj's
 * {@code Peer}).
 */
package org.blockfilter.wallet.source.p2p;
