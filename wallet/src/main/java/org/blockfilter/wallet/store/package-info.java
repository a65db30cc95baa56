/**
 * The wallet file: one JSON document written atomically (temp file, fsync, atomic rename) under an
 * OS lock, every save a read-modify-write. The mnemonic is always sealed by a passphrase (scrypt +
 * AES-256-GCM); the rest (account public keys, header chain, verified filter headers and
 * checkpoints, sync position, transactions) is sealed too ({@link
 * org.blockfilter.wallet.store.Sealing#ALL}) or kept in the clear so that sync and balance need no
 * passphrase ({@code SECRET_ONLY}, {@code NONE}).
 */
package org.blockfilter.wallet.store;
