/** Not API: key derivation, transaction building and signing, and the UTXO model of the scenario runner. */
package org.blockfilter.regtest.scenario.internal;
