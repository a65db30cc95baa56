/**
 * The wallet's files: a small JSON document (keys, ledger, tip records) written atomically (temp
 * file, fsync, atomic rename) under an OS lock, every save a read-modify-write, and flat files of
 * fixed-size records beside it that hold the block headers, filter headers and checkpoints and
 * grow by appends ({@link org.blockfilter.wallet.store.RecordFile}). The mnemonic is always sealed
 * by a passphrase (scrypt + AES-256-GCM); the rest of the document is sealed too ({@link
 * org.blockfilter.wallet.store.Sealing#ALL}) or kept in the clear so that sync and balance need no
 * passphrase ({@code SECRET_ONLY}, {@code NONE}); the flat files are never sealed.
 */
package org.blockfilter.wallet.store;
