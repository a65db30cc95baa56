/**
 * How the server reaches a node: {@link org.blockfilter.server.node.NodeGateway} (heights, raw
 * blocks, relay) over JSON-RPC ({@link org.blockfilter.server.node.RpcNodeGateway}, see
 * {@code org.blockfilter.server.rpc}), its errors ({@link org.blockfilter.server.node.NodeException}),
 * and an in-process embedded regtest node found through
 * {@link org.blockfilter.server.node.EmbeddedNodeLauncher}.
 */
package org.blockfilter.server.node;
