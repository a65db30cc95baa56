/**
 * Regtest nodes behind one interface, {@link org.blockfilter.regtest.RegtestNode}: the embedded
 * in-process node (this module, {@code regtest/embedded-node}) and btcd and Bitcoin Core (module
 * {@code regtest/harness}), plus deterministic scenario chains.
 */
package org.blockfilter.regtest;
