/**
 * A small JSON-RPC client for nodes that speak Bitcoin Core's RPC dialect (Bitcoin Core,
 * btcd, and our embedded regtest node). No Javalin, no storage.
 */
package org.blockfilter.server.rpc;
