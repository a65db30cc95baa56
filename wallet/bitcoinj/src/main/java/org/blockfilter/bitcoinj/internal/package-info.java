/** Not API: the bitcoinj wallet and block store as the sync engine's {@code SyncTarget}. */
package org.blockfilter.bitcoinj.internal;
