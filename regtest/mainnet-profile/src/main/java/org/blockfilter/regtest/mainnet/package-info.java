/**
 * A regtest chain shaped like mainnet (docs/mainnet-profile.md): {@link
 * org.blockfilter.regtest.mainnet.ChainGenerator} writes it to a cache file, {@link
 * org.blockfilter.regtest.mainnet.ProfileChain} reads it back, and {@link
 * org.blockfilter.regtest.mainnet.MainnetProfileRpcMain} serves it over Bitcoin Core's JSON-RPC.
 */
package org.blockfilter.regtest.mainnet;
