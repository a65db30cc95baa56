/**
 * The embedded in-process regtest node: {@link org.blockfilter.regtest.embedded.EmbeddedNode}
 * (a {@link org.blockfilter.regtest.RegtestNode} written with bitcoinj, with a Bitcoin
 * Core-compatible JSON-RPC subset), the command that runs it alone
 * ({@link org.blockfilter.regtest.embedded.EmbeddedNodeMain}) and the server's
 * {@code --embedded} launcher.
 */
package org.blockfilter.regtest.embedded;
