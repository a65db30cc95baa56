package org.blockfilter.wallet.sync;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
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
 *     (which may slide the gap window);</li>
 * <li>{@code decoys}: groups the fetch policy adopted, kept with the wallet and followed by later syncs.</li>
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
        List<OutputScript> usedScripts,
        List<DecoyGroup> decoys) {

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
            List.of(),
            List.of());

    public SyncUpdate {
        headers = headers.stream().map(byte[]::clone).toList();
        filterHeaders = List.copyOf(filterHeaders);
        checkpoints = checkpoints.map(List::copyOf);
        transactions = List.copyOf(transactions);
        usedScripts = List.copyOf(usedScripts);
        decoys = List.copyOf(decoys);
    }

    @Override
    public List<byte[]> headers() {
        return headers.stream().map(byte[]::clone).toList();
    }

    /** The block headers above {@code fork} replaced by {@code branch}. */
    static SyncUpdate headers(int fork, List<byte[]> branch) {
        return NONE.with(d -> {
            d.headerFork = OptionalInt.of(fork);
            d.headers = branch;
        });
    }

    SyncUpdate withFilterHeaderStart(int base, Sha256Hash anchor) {
        return with(d -> d.filterHeaderStart = Optional.of(new FilterHeaderStart(base, anchor)));
    }

    SyncUpdate withFilterHeadersKeptThrough(int height) {
        return with(d -> d.keepFilterHeadersThrough = OptionalInt.of(height));
    }

    SyncUpdate withFilterHeaders(List<Sha256Hash> verified) {
        return with(d -> d.filterHeaders = verified);
    }

    SyncUpdate withCheckpoints(List<Sha256Hash> verified) {
        return with(d -> d.checkpoints = Optional.of(verified));
    }

    SyncUpdate withScannedHeight(int height) {
        return with(d -> d.scannedHeight = OptionalInt.of(height));
    }

    SyncUpdate withTransactions(List<WalletTx> found, List<OutputScript> used) {
        return with(d -> {
            d.transactions = found;
            d.usedScripts = used;
        });
    }

    SyncUpdate withDecoys(List<DecoyGroup> adopted) {
        return with(d -> d.decoys = adopted);
    }

    private SyncUpdate with(Consumer<Draft> change) {
        Draft d = new Draft(this);
        change.accept(d);
        return new SyncUpdate(
                d.headerFork,
                d.headers,
                d.filterHeaderStart,
                d.keepFilterHeadersThrough,
                d.filterHeaders,
                d.checkpoints,
                d.scannedHeight,
                d.transactions,
                d.usedScripts,
                d.decoys);
    }

    /** A copy being changed by one of the {@code with} methods. */
    private static final class Draft {
        OptionalInt headerFork;
        List<byte[]> headers;
        Optional<FilterHeaderStart> filterHeaderStart;
        OptionalInt keepFilterHeadersThrough;
        List<Sha256Hash> filterHeaders;
        Optional<List<Sha256Hash>> checkpoints;
        OptionalInt scannedHeight;
        List<WalletTx> transactions;
        List<OutputScript> usedScripts;
        List<DecoyGroup> decoys;

        Draft(SyncUpdate u) {
            headerFork = u.headerFork;
            headers = u.headers;
            filterHeaderStart = u.filterHeaderStart;
            keepFilterHeadersThrough = u.keepFilterHeadersThrough;
            filterHeaders = u.filterHeaders;
            checkpoints = u.checkpoints;
            scannedHeight = u.scannedHeight;
            transactions = u.transactions;
            usedScripts = u.usedScripts;
            decoys = u.decoys;
        }
    }
}
