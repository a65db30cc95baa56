package org.blockfilter.wallet.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.WalletTx;

/**
 * What one verified step of a sync learned, for the wallet to apply ({@code
 * org.blockfilter.wallet.WalletUpdates#apply}); the sync phases read the wallet through {@link
 * SyncState} and change it only through these. Applied in field order:
 *
 * <ol>
 * <li>{@code headerFork}: the block headers above that height are replaced by {@code headers}
 *     (appended at {@code headerFork + 1}). Below the tip that is a reorg: the transactions,
 *     filter headers, checkpoints and scan position above the fork go too;</li>
 * <li>{@code filterHeaderStart}: the filter-header chain starts again, empty, at that height and
 *     anchor;</li>
 * <li>{@code keepFilterHeadersThrough}: filter headers above that height are dropped (below the
 *     chain's anchor: it starts again from genesis);</li>
 * <li>{@code filterHeaders}: appended at the filter-header tip, already verified;</li>
 * <li>{@code checkpoints}: the verified checkpoints, replacing the stored ones;</li>
 * <li>{@code scannedHeight}: the new scan position;</li>
 * <li>{@code transactions} found in verified blocks, then {@code usedScripts} seen on chain
 *     (which may slide the gap window).</li>
 * </ol>
 *
 * Empty fields change nothing. Immutable (the header bytes are copied in and out; the record
 * compares them by reference). No field is null.
 */
public record SyncUpdate(
        OptionalInt headerFork,
        List<byte[]> headers,
        Optional<FilterHeaderStart> filterHeaderStart,
        OptionalInt keepFilterHeadersThrough,
        List<Sha256Hash> filterHeaders,
        Optional<List<Sha256Hash>> checkpoints,
        OptionalInt scannedHeight,
        List<WalletTx> transactions,
        List<OutputScript> usedScripts) {

    /** Where a filter-header chain starts: its first height and the header just below it. */
    public record FilterHeaderStart(int base, Sha256Hash anchor) {}

    /** Changes nothing. */
    public static final SyncUpdate NONE = new SyncUpdate(
            OptionalInt.empty(),
            List.of(),
            Optional.empty(),
            OptionalInt.empty(),
            List.of(),
            Optional.empty(),
            OptionalInt.empty(),
            List.of(),
            List.of());

    public SyncUpdate {
        headers = headers.stream().map(byte[]::clone).toList();
        filterHeaders = List.copyOf(filterHeaders);
        checkpoints = checkpoints.map(List::copyOf);
        transactions = List.copyOf(transactions);
        usedScripts = List.copyOf(usedScripts);
    }

    @Override
    public List<byte[]> headers() {
        return headers.stream().map(byte[]::clone).toList();
    }

    /** The block headers above {@code fork} replaced by {@code branch}. */
    static SyncUpdate headers(int fork, List<byte[]> branch) {
        return new SyncUpdate(
                OptionalInt.of(fork),
                new ArrayList<>(branch),
                Optional.empty(),
                OptionalInt.empty(),
                List.of(),
                Optional.empty(),
                OptionalInt.empty(),
                List.of(),
                List.of());
    }

    SyncUpdate withFilterHeaderStart(int base, Sha256Hash anchor) {
        return new SyncUpdate(
                headerFork,
                headers,
                Optional.of(new FilterHeaderStart(base, anchor)),
                keepFilterHeadersThrough,
                filterHeaders,
                checkpoints,
                scannedHeight,
                transactions,
                usedScripts);
    }

    SyncUpdate withFilterHeadersKeptThrough(int height) {
        return new SyncUpdate(
                headerFork,
                headers,
                filterHeaderStart,
                OptionalInt.of(height),
                filterHeaders,
                checkpoints,
                scannedHeight,
                transactions,
                usedScripts);
    }

    SyncUpdate withFilterHeaders(List<Sha256Hash> verified) {
        return new SyncUpdate(
                headerFork,
                headers,
                filterHeaderStart,
                keepFilterHeadersThrough,
                verified,
                checkpoints,
                scannedHeight,
                transactions,
                usedScripts);
    }

    SyncUpdate withCheckpoints(List<Sha256Hash> verified) {
        return new SyncUpdate(
                headerFork,
                headers,
                filterHeaderStart,
                keepFilterHeadersThrough,
                filterHeaders,
                Optional.of(verified),
                scannedHeight,
                transactions,
                usedScripts);
    }

    SyncUpdate withScannedHeight(int height) {
        return new SyncUpdate(
                headerFork,
                headers,
                filterHeaderStart,
                keepFilterHeadersThrough,
                filterHeaders,
                checkpoints,
                OptionalInt.of(height),
                transactions,
                usedScripts);
    }

    SyncUpdate withTransactions(List<WalletTx> found, List<OutputScript> used) {
        return new SyncUpdate(
                headerFork,
                headers,
                filterHeaderStart,
                keepFilterHeadersThrough,
                filterHeaders,
                checkpoints,
                scannedHeight,
                found,
                used);
    }
}
