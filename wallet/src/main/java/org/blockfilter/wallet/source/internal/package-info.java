/**
 * Not API. Strict, bounded decoding of the Bitcoin wire encodings that the transports read
 * (CompactSize, hashes, length-prefixed byte strings), and an HTTP body reader with a size limit.
 */
package org.blockfilter.wallet.source.internal;
