/**
 * The read side of the filter index: {@link org.blockfilter.server.read.FilterIndexReader}, what
 * the REST and P2P layers answer from, and {@link org.blockfilter.server.read.StoreFilterIndexReader},
 * its implementation over the index store the indexer writes. Reads only; no Javalin imports.
 */
package org.blockfilter.server.read;
