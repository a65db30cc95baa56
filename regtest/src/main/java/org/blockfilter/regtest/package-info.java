/**
 * Regtest nodes behind one interface (btcd, Bitcoin Core via Testcontainers, an embedded in-process node) and deterministic scenario chains.
 */
package org.blockfilter.regtest;
