/**
 * What a light client must know of each Bitcoin network before it talks to anyone: the
 * network's identity (name, message start, genesis, default ports, address prefixes) and the
 * block-header checkpoints it may start a header chain from instead of genesis, and the relay
 * rules every wallet and node here agrees on (Core's dust limit). Values only; no I/O.
 */
package org.blockfilter.filters.chain;
