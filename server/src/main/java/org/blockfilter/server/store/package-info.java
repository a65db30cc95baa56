/**
 * The server's on-disk store (RocksDB): filters, filter headers and block headers by hash,
 * the best chain by height, the unspent output scripts the filters need, and per-block undo
 * data, each block written in one atomic batch. The layout is described in {@link
 * org.blockfilter.server.store.IndexStore}. No network, no Javalin.
 */
package org.blockfilter.server.store;
