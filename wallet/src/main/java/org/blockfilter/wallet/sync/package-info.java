/**
 * The BIP 157/158 sync engine: verified block headers, filter headers checked link by link and
 * against checkpoints, filters checked against their headers and matched locally, matching
 * blocks checked against their headers; sources compared and liars named and dropped.
 */
package org.blockfilter.wallet.sync;
