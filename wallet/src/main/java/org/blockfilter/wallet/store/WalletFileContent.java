package org.blockfilter.wallet.store;

import java.util.List;

/**
 * The wallet document, as written (JSON via Jackson): keys, ledger, sync position and the tip
 * records of the chains whose headers live in flat files beside it ({@link RecordFile}s named by
 * {@link ChainFiles}). What the document says is committed; a header file may hold more (written
 * before a crash, before the document) and is then read only up to the tip record. Immutable;
 * {@code secret}, {@code birthdayTime}, {@code filterAnchor}, {@code filterTipHeader} and {@code
 * lastCheckpoint} may be null (watch-only wallet; birthday given as a height; filter chain not
 * anchored yet or empty; no checkpoint), every other field is non-null.
 *
 * @param version        file format version, {@link #CURRENT_VERSION}
 * @param network        bitcoinj network id string, e.g. {@code regtest}
 * @param gapLimit       unused addresses kept watched past the last used one on each chain
 * @param accounts       the accounts' public keys and chain positions
 * @param secret         the BIP 39 mnemonic (UTF-8, space separated), sealed; null when watch-only
 * @param birthdayHeight first height whose filter is scanned; -1 for a wallet born at the tip its first sync sees
 * @param birthdayTime   the birthday as given by the user (epoch seconds), or null
 * @param chain          the block-header chain's base and tip
 * @param filterHeaderStart height of the first filter header ({@code filterAnchor} is the one below it)
 * @param filterAnchor   the filter header at {@code filterHeaderStart - 1} (hex), null when not known yet
 * @param filterTipHeight height of the last committed filter header ({@code filterHeaderStart - 1} when none)
 * @param filterTipHeader the filter header at {@code filterTipHeight} (hex), null when none
 * @param checkpointCount verified BIP 157 filter-header checkpoints (heights 1000, 2000, ...) committed
 * @param lastCheckpoint the last of them (hex), null when none
 * @param scannedHeight  highest height whose filter was matched (birthdayHeight - 1 before any)
 * @param transactions   the wallet's transactions, confirmed (height >= 0) and pending (height -1)
 * @param labels         BIP 329 labels of addresses, transactions and outputs (absent in version 2 files: none)
 * @param decoys         the fetch policy's decoy groups, followed by every sync (absent before version 4: none)
 */
public record WalletFileContent(
        int version,
        String network,
        int gapLimit,
        List<Account> accounts,
        SealedSecret secret,
        int birthdayHeight,
        Long birthdayTime,
        Chain chain,
        int filterHeaderStart,
        String filterAnchor,
        int filterTipHeight,
        String filterTipHeader,
        int checkpointCount,
        String lastCheckpoint,
        int scannedHeight,
        List<Tx> transactions,
        List<Label> labels,
        List<Decoy> decoys) {
    /**
     * 4: the document keeps the fetch policy's decoy groups. 3 (read, and rewritten as 4 on the next save):
     * accounts carry their descriptors, and the document its labels. 2 (read likewise): accounts as kind and xpub
     * only, no labels.
     */
    public static final int CURRENT_VERSION = 4;

    /** The version before decoy groups were kept, still read. */
    public static final int VERSION_3 = 3;

    /** The version before descriptors and labels, still read. */
    public static final int VERSION_2 = 2;

    public WalletFileContent {
        accounts = List.copyOf(accounts);
        transactions = List.copyOf(transactions);
        labels = labels == null ? List.of() : List.copyOf(labels);
        decoys = decoys == null ? List.of() : List.copyOf(decoys);
    }

    /**
     * A decoy group: {@code kind} "decoy" (one script) or "cluster" (a common-input cluster's members), the height
     * of the matched block it was adopted for (followed above it), its seed block's height, and the output scripts
     * (hex).
     */
    public record Decoy(String kind, int adoptedAt, int seedHeight, List<String> scripts) {}

    /**
     * One account: its kind, extended public key (for multisig, its descriptor), chain positions,
     * and its public descriptor(s): one with {@code /<0;1>/*}, or a receive and a change descriptor.
     * The descriptors are null in version 2 files (the account is then its kind and xpub).
     */
    public record Account(
            String kind,
            String xpub,
            int receiveUsed,
            int receiveIssued,
            int changeUsed,
            int changeIssued,
            String descriptor,
            String changeDescriptor) {}

    /** A BIP 329 label: {@code type} (tx, addr, output, ...), {@code ref} and the label text; {@code spendable} for outputs, else null. */
    public record Label(String type, String ref, String label, Boolean spendable) {}

    /** One transaction: txid (display hex), height (-1 pending), block hash (null pending) and raw bytes (hex). */
    public record Tx(String txid, int height, String blockHash, String raw) {}

    /**
     * The block-header chain: its base (a checkpoint, or genesis at 0: height, 80-byte header in
     * hex, chain work in hex) and its committed tip (height, hash, chain work in hex).
     */
    public record Chain(
            int baseHeight, String baseHeader, String baseWork, int tipHeight, String tipHash, String tipWork) {}
}
