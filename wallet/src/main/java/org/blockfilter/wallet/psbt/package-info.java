/**
 * Partially signed transactions, BIP 174 version 0 with the taproot fields of BIP 371. bitcoinj
 * 0.17 has no PSBT support, so the codec is written here by hand: {@link
 * org.blockfilter.wallet.psbt.PsbtDecoder} reads the binary format strictly (every key type of the
 * two BIPs checked for its key and value lengths, duplicate keys, missing or extra maps and trailing
 * bytes refused with the field and the byte offset named), unknown key types are kept in order and
 * written back unchanged. {@link org.blockfilter.wallet.psbt.Psbt} is the value (combine, extract),
 * {@link org.blockfilter.wallet.psbt.PsbtSigner} signs P2PKH, P2WPKH, P2SH-P2WPKH, P2WSH multisig
 * and P2TR key-path inputs (bitcoinj's BIP 143 and legacy sighashes, our BIP 341 sighash and
 * libsecp256k1's BIP 340 signatures), {@link org.blockfilter.wallet.psbt.PsbtFinalizer} builds the
 * final scriptSigs and witnesses. BIP 370 (version 2) is not supported and is refused by name.
 */
package org.blockfilter.wallet.psbt;
