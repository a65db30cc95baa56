/**
 * BIP 158 Golomb-coded sets and basic block filters, BIP 157 filter headers and checkpoints, BIP 37 Bloom filters and the Bloom math. Knows the math and the wire formats, nothing about networks or storage.
 */
package org.blockfilter.filters;
