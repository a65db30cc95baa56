/**
 * The embedded node's machinery: chain state with UTXO set, undo data and mempool
 * ({@link org.blockfilter.regtest.embedded.internal.Chain}), block and script rules, and the
 * Core-compatible JSON-RPC server. Not API: use {@link org.blockfilter.regtest.embedded.EmbeddedNode}.
 */
package org.blockfilter.regtest.embedded.internal;
