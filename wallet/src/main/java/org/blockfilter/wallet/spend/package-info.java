/**
 * Spending: coin selection (no dust change, fee known before sending), building and signing
 * P2WPKH, P2PKH and P2TR key-path spends, and broadcasting through the chain sources, recorded
 * as pending only once a source confirmed that its node accepted the payment.
 */
package org.blockfilter.wallet.spend;
