package org.blockfilter.wallet;

import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.SyncUpdate;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * Where a sync's {@link SyncUpdate}s change a {@link LightWallet}: the one place the verified
 * chains, checkpoints, scan position, ledger, gap window and kept decoys move during a sync, in the order the
 * update's fields say. Saving is the caller's ({@link LightWallet#save()}). Stateless.
 */
public final class WalletUpdates {
    private WalletUpdates() {}

    /**
     * Applies one verified update to the wallet in memory: a reorg first if the header chain forked (transactions,
     * filter headers, checkpoints and scan above the fork go), then new headers, filter headers, checkpoints, the scan
     * height, the matched transactions and the scripts they used (which slide the gap window).
     */
    public static void apply(LightWallet w, SyncUpdate u) {
        u.headerFork().ifPresent(fork -> {
            VerifiedHeaderChain chain = w.headers();
            if (fork < chain.tipHeight()) {
                reorg(w, fork);
            }
            List<byte[]> branch = u.headers();
            if (!branch.isEmpty()) {
                chain.connect(fork + 1, branch);
            }
        });
        u.filterHeaderStart().ifPresent(s -> w.resetFilterHeaders(new FilterHeaderChain(s.base(), s.anchor())));
        u.keepFilterHeadersThrough().ifPresent(h -> keepFilterHeaders(w, h));
        if (!u.filterHeaders().isEmpty()) {
            w.filterHeaders().append(u.filterHeaders());
        }
        u.checkpoints().ifPresent(w::setCheckpoints);
        u.scannedHeight().ifPresent(w::setScannedHeight);
        for (WalletTx tx : u.transactions()) {
            w.ledger().put(tx);
        }
        for (OutputScript s : u.usedScripts()) {
            w.keys().markUsed(s);
        }
        w.addDecoys(u.decoys());
    }

    /**
     * The blocks above {@code fork} left the best chain: so do their transactions, filter headers, checkpoints, scan
     * and the decoys adopted for them.
     */
    private static void reorg(LightWallet w, int fork) {
        w.headers().truncate(fork);
        w.ledger().rollbackAbove(fork);
        keepFilterHeaders(w, fork);
        List<Sha256Hash> cps = w.checkpoints();
        w.setCheckpoints(cps.subList(0, Math.min(cps.size(), fork / Bip157.CHECKPOINT_INTERVAL)));
        w.setScannedHeight(Math.min(w.scannedHeight(), fork));
        w.dropDecoysAbove(fork);
    }

    /**
     * Drops the filter headers above {@code height}; below the chain's anchor it starts again from
     * the block-header chain's base (genesis, or the checkpoint it starts at).
     */
    private static void keepFilterHeaders(LightWallet w, int height) {
        FilterHeaderChain fh = w.filterHeaders();
        if (height < fh.base() - 1) {
            w.resetFilterHeaders(w.newFilterHeaderChain());
        } else {
            fh.truncate(height);
        }
    }
}
