/**
 * Experiments that measure what BIP 37 Bloom filters and BIP 158 block downloads reveal about a wallet's addresses.
 */
package org.blockfilter.privacylab;
