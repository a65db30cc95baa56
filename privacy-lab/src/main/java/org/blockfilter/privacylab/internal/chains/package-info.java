/**
 * The modelled chains and clients: the real regtest chain, the mainnet-like and profile-shaped model chains, the
 * script occurrence index, the one-time-change links, and the bitcoinj wallets and the filters they send. Not API.
 */
package org.blockfilter.privacylab.internal.chains;
