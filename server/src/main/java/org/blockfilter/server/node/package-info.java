/**
 * How the server reaches a node: over JSON-RPC (see {@code org.blockfilter.server.rpc}); the
 * {@code --embedded} demo mode starts {@code org.blockfilter.regtest.embedded.EmbeddedNode} in-process
 * (module {@code regtest/embedded-node}) and talks JSON-RPC to it the same way.
 */
package org.blockfilter.server.node;
