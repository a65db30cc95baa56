/**
 * The hand-written filter structures the lab measures beside bitcoinj's Bloom filter (quotient and ribbon filters),
 * and a fast read-only copy of a bitcoinj Bloom filter for scanning. Not API.
 */
package org.blockfilter.privacylab.internal.filters;
