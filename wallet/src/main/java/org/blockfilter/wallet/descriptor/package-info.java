/**
 * Output script descriptors (BIP 380-386, BIP 389 multipath), written by hand: bitcoinj 0.17 has
 * no descriptor support, so parsing, the checksum and script construction live here, on top of
 * bitcoinj's {@code DeterministicKey}/{@code HDKeyDerivation} for keys, {@code ScriptBuilder} for
 * scripts and {@code Base58}/{@code Bech32} for keys and addresses, and {@code keys.Taproot} for the
 * BIP 341 tweak.
 *
 * <p>{@link org.blockfilter.wallet.descriptor.Descriptor#parse} reads a descriptor strictly (a bad
 * checksum, an unknown function, a hardened step after an xpub, a key of another network, ... are
 * {@link org.blockfilter.wallet.descriptor.DescriptorException}s naming what is wrong); {@link
 * org.blockfilter.wallet.descriptor.Descriptor#derive} gives, for a chain and an index, the output
 * script and what a signer needs ({@link org.blockfilter.wallet.descriptor.DescriptorOutput}).
 * Supported: {@code pk}, {@code pkh}, {@code wpkh}, {@code sh}, {@code wsh}, {@code multi}, {@code
 * sortedmulti}, {@code tr} (key path, and script trees of {@code pk()} leaves), {@code raw}, {@code
 * addr}. Not supported (refused by name): {@code combo}, {@code multi_a}, {@code sortedmulti_a},
 * {@code rawtr}, {@code musig} and miniscript.
 */
package org.blockfilter.wallet.descriptor;
