/**
 * The Bitcoin Core backend: {@code bitcoind -regtest} in a Docker container through
 * Testcontainers, with the block filter index, BIP 157 and BIP 37 serving and REST enabled.
 * Needs a Docker engine; everything but start and mining is shared with the btcd backend.
 */
package org.blockfilter.regtest.core;
