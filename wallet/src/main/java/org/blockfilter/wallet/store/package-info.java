/**
 * The wallet file: one JSON document written atomically (temp file, fsync, atomic rename), with
 * the mnemonic sealed by a passphrase (scrypt + AES-256-GCM) and everything else (account public
 * keys, header chain, verified filter headers and checkpoints, sync position, transactions) in
 * the clear so that sync and balance need no passphrase.
 */
package org.blockfilter.wallet.store;
