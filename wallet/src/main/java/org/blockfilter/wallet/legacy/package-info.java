/**
 * Legacy BIP 37 mode, kept for comparison with BIP 157/158: the same keys and scripts synced the
 * way bitcoinj does it (its {@code Wallet}, {@code PeerGroup} and {@code SPVBlockStore} with a
 * Bloom filter, against a node that serves BIP 37), and against our server's
 * {@code POST /api/v1/bip37/scan} endpoint. For measurement, not for holding money.
 */
package org.blockfilter.wallet.legacy;
