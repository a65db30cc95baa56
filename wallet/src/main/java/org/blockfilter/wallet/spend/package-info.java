/**
 * Spending: coin selection (no dust change, fee known before sending), building and signing
 * P2WPKH and P2PKH spends with bitcoinj, and broadcasting through a chain source. P2TR outputs
 * are received and tracked but not spent: bitcoinj 0.17 has no Schnorr signatures or BIP 341
 * sighash.
 */
package org.blockfilter.wallet.spend;
