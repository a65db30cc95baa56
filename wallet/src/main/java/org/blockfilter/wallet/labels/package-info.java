/**
 * BIP 329 wallet labels: the user's names for transactions, addresses and outputs, kept in the
 * wallet document and exported and imported as BIP 329 JSON lines.
 */
package org.blockfilter.wallet.labels;
