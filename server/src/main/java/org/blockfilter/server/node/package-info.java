/**
 * How the server reaches a node: over JSON-RPC (see {@code org.blockfilter.server.rpc}); the
 * {@code --embedded} demo mode starts {@code org.blockfilter.regtest.embedded.EmbeddedNode} in-process
 * (module {@code regtest/embedded-node}) and talks JSON-RPC to it the same way. {@link
 * org.blockfilter.server.node.BlockCache} keeps raw blocks fetched from the node, bounded by bytes.
 */
package org.blockfilter.server.node;
