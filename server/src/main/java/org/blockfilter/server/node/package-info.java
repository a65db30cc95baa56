/**
 * How the server reaches a node: over JSON-RPC (see {@code org.blockfilter.server.rpc}), or an
 * in-process embedded regtest node found through {@link org.blockfilter.server.node.EmbeddedNodeLauncher};
 * and a byte-bounded cache of raw blocks fetched from it ({@link org.blockfilter.server.node.BlockCache}).
 */
package org.blockfilter.server.node;
