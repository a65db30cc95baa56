/**
 * HD light wallet that syncs BIP 157 filter headers and BIP 158 filters, matches them locally and fetches only matching blocks.
 */
package org.blockfilter.wallet;
