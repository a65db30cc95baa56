/**
 * HD keys of the light wallet: a BIP 39 mnemonic, BIP 32 derivation, BIP 44 (P2PKH), BIP 84
 * (P2WPKH) and BIP 86 (P2TR) accounts with receive and change chains, and the gap-limit window
 * of scripts the sync engine watches. Watch-only wallets hold account public keys only.
 */
package org.blockfilter.wallet.keys;
