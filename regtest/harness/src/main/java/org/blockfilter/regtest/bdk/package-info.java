/**
 * BDK, the Bitcoin Dev Kit, as an independent wallet to check ours against: installs
 * {@code bdkpython} into a Python venv under the module's {@code target/} and runs Python scripts
 * with it ({@link org.blockfilter.regtest.bdk.BdkPython}). Its {@code CbfBuilder} is Kyoto, a
 * BIP 157 client, which syncs from a node's P2P port with compact filters.
 */
package org.blockfilter.regtest.bdk;
