/**
 * How the server reaches a node: {@link org.blockfilter.server.node.NodeGateway} (heights, raw
 * blocks, relay) over JSON-RPC ({@link org.blockfilter.server.node.RpcNodeGateway}, see
 * {@code org.blockfilter.server.rpc}) and its errors ({@link org.blockfilter.server.node.NodeException}).
 * The {@code --embedded} demo mode starts {@code org.blockfilter.regtest.embedded.EmbeddedNode}
 * in-process (module {@code regtest/embedded-node}) and talks JSON-RPC to it the same way.
 * {@link org.blockfilter.server.node.BlockCache} keeps raw blocks fetched from the node, bounded by bytes.
 */
package org.blockfilter.server.node;
