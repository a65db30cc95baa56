/**
 * Where the wallet gets headers, filters and blocks: one interface, {@link
 * org.blockfilter.wallet.source.ChainSource}, with a REST transport (our server) and a BIP 157
 * P2P transport (a node). Sources are untrusted: the sync engine verifies everything.
 */
package org.blockfilter.wallet.source;
