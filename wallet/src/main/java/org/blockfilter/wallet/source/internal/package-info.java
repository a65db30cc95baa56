/**
 * Not API. Strict, bounded decoding of the Bitcoin wire encodings that both transports read
 * (CompactSize, hashes, length-prefixed byte strings).
 */
package org.blockfilter.wallet.source.internal;
