/**
 * The Bitcoin P2P wire format a BIP 157 light client and a filter-serving peer need, without any
 * I/O: the 24-byte message frame (magic, command, length, checksum), the messages as values, and
 * their strict codecs. Sockets and handshakes live with the caller (the wallet's
 * {@code P2pSource}; the server's P2P listener, {@code org.blockfilter.server.p2p}).
 */
package org.blockfilter.filters.p2p;
