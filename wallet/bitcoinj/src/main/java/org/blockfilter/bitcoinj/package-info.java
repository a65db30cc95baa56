/**
 * BIP 157/158 for bitcoinj: {@link org.blockfilter.bitcoinj.FilterSync} keeps an unmodified bitcoinj
 * {@code Wallet} in step with the best chain the compact-filter sources can prove (our REST server, a
 * static export, any BIP 157 peer), through bitcoinj's own {@code BlockChain} and {@code SPVBlockStore};
 * {@link org.blockfilter.bitcoinj.WalletScripts} is what it matches the filters against.
 */
package org.blockfilter.bitcoinj;
