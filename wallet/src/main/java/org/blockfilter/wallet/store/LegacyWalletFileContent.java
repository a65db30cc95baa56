package org.blockfilter.wallet.store;

import java.util.List;

/**
 * The one-document wallet format ({@code version} 1), which held every block header from genesis
 * and every filter header in the document itself; read only to migrate it ({@code
 * WalletMigration}) to {@link WalletFileContent}, whose headers live in flat files. Immutable; {@code secret} and
 * {@code birthdayTime} may be null (watch-only wallet; birthday given as a height), every other
 * field is non-null.
 *
 * @param version       file format version, {@link #VERSION}
 * @param network       bitcoinj network id string, e.g. {@code regtest}
 * @param gapLimit      unused addresses kept watched past the last used one on each chain
 * @param accounts      the accounts' public keys and chain positions
 * @param secret        the BIP 39 mnemonic (UTF-8, space separated), sealed; null when watch-only
 * @param birthdayHeight first height whose filter is scanned
 * @param birthdayTime  the birthday as given by the user (epoch seconds), or null
 * @param headers       base64 of the 80-byte block headers of the best chain from height 0
 * @param filterHeaderStart height of the first verified filter header stored
 * @param filterHeaders base64 of 32-byte filter headers (display order) from {@code filterHeaderStart}
 * @param checkpoints   verified BIP 157 filter-header checkpoints (heights 1000, 2000, ...), hex
 * @param scannedHeight highest height whose filter was matched (birthdayHeight - 1 before any)
 * @param transactions  the wallet's transactions, confirmed (height >= 0) and pending (height -1)
 */
public record LegacyWalletFileContent(
        int version,
        String network,
        int gapLimit,
        List<WalletFileContent.Account> accounts,
        SealedSecret secret,
        int birthdayHeight,
        Long birthdayTime,
        String headers,
        int filterHeaderStart,
        String filterHeaders,
        List<String> checkpoints,
        int scannedHeight,
        List<WalletFileContent.Tx> transactions) {
    /** The document version this layout was written as; later versions keep headers in {@link ChainFiles} instead. */
    public static final int VERSION = 1;

    public LegacyWalletFileContent {
        accounts = List.copyOf(accounts);
        checkpoints = List.copyOf(checkpoints);
        transactions = List.copyOf(transactions);
    }
}
