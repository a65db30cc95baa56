/**
 * The block-filter server: follows a Bitcoin node over JSON-RPC, indexes a BIP 158 filter per block and serves filters, headers, checkpoints and blocks over REST.
 */
package org.blockfilter.server;
