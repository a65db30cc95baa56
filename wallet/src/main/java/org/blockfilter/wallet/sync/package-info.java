/**
 * The BIP 157/158 sync engine: verified block headers, filter headers checked link by link and
 * against checkpoints, filters checked against their headers and matched locally, matching
 * blocks checked against their headers; sources compared and liars named and dropped. {@link
 * org.blockfilter.wallet.sync.SyncEngine} runs one class per phase over a read-only view of the
 * wallet; each returns what it verified as a {@link org.blockfilter.wallet.sync.SyncUpdate}, which
 * the wallet applies in one place ({@code org.blockfilter.wallet.WalletUpdates}).
 */
package org.blockfilter.wallet.sync;
