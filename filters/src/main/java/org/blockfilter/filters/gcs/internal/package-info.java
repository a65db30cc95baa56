/**
 * Not API: the bit-level codecs behind {@link org.blockfilter.filters.gcs.GolombCodedSet} (strict
 * CompactSize, Golomb-Rice bit reader and writer over 64-bit big-endian words).
 */
package org.blockfilter.filters.gcs.internal;
