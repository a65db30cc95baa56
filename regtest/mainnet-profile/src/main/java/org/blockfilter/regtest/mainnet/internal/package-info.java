/**
 * The generator's machinery: the wire writer, the seeded random source, script ids and the
 * unspent-output pool. Not API.
 */
package org.blockfilter.regtest.mainnet.internal;
