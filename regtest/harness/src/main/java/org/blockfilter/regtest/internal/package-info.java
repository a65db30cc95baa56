/**
 * Not API: what the btcd and Bitcoin Core backends share (the JSON-RPC node base, building
 * competing branches for reorgs, free ports, log tails).
 */
package org.blockfilter.regtest.internal;
