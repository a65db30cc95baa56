package org.blockfilter.regtest.mainnet;

/**
 * The output a non-coinbase input spends, as Bitcoin Core's {@code getblock <hash> 3} reports it
 * in {@code vin[].prevout}: the height of the block that created it, its value in satoshis, and
 * its scriptPubKey. Immutable.
 */
public record Prevout(int height, long value, byte[] script) {}
