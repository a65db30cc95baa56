/**
 * HD keys of the light wallet: a BIP 39 mnemonic (with its optional passphrase), BIP 32
 * derivation, and accounts that are output descriptors ({@link org.blockfilter.wallet.keys.HdAccount}):
 * BIP 44 (P2PKH), BIP 84 (P2WPKH) and BIP 86 (P2TR) from a seed, and watch-only accounts from
 * xpubs or descriptors (including {@code sh(wpkh)} and multisig), each with receive and change
 * chains, and the gap-limit window of scripts the sync engine watches.
 */
package org.blockfilter.wallet.keys;
