/**
 * Spending: coin selection (no dust change, fee known before sending), Bitcoin Core's relay rules
 * (dust limits, BIP 125 replaceability), the fee rate from the sources' estimates, building and
 * signing P2WPKH, P2PKH and P2TR (BIP 86 key path) spends, BIP 125 fee bumps, and broadcasting
 * through the chain sources, recorded as pending only once a source confirmed that its node
 * accepted the payment.
 */
package org.blockfilter.wallet.spend;
