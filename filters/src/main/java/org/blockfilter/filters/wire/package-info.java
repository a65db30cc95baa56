/**
 * Bitcoin's wire encodings, strictly: CompactSize, little-endian integers, 32-byte hashes in wire
 * order, length-prefixed byte and character strings. Decoding rejects truncation, non-canonical
 * CompactSizes and values over the caller's bound with a {@link org.blockfilter.filters.wire.WireFormatException}
 * naming the field, the value and the byte offset. The one codec every module uses; no I/O.
 */
package org.blockfilter.filters.wire;
