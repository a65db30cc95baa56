/**
 * Not API. Limits the wallet's transports (REST and P2P) enforce on what a source sends, besides
 * BIP 157's. The wire codec itself is {@code org.blockfilter.filters.wire}.
 */
package org.blockfilter.wallet.source.internal;
