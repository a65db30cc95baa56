package org.blockfilter.wallet.sync;

import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * What a {@link SyncEngine} keeps in step with the chain: the verified block-header and
 * filter-header chains, the checkpoints and scan position, and the wallet's scripts. The engine's
 * phases read it and change it only through {@link #apply}; the wallet behind it is ours (a {@code
 * LightWallet}) or another one (the bitcoinj adapter keeps a bitcoinj {@code Wallet} in step).
 * Implementations need not be thread-safe: one sync at a time. No method returns null except where
 * documented.
 */
public interface SyncTarget {
    /** The network the target is on. */
    Chain chain();

    /** The verified block-header chain the sources' answers are checked against. */
    VerifiedHeaderChain headers();

    /** The verified filter-header chain. */
    FilterHeaderChain filterHeaders();

    /** The verified BIP 157 checkpoints (every {@code Bip157.CHECKPOINT_INTERVAL} blocks), lowest first. */
    List<Sha256Hash> checkpoints();

    /** The highest height whose filter has been matched; blocks above it are still to scan. */
    int scannedHeight();

    /** The first height that may pay the wallet: filter headers and the scan start there at the earliest. */
    int birthdayHeight();

    /** A secret of the wallet the fetch policy derives its decoys from, so that two syncs download the same ones. */
    byte[] decoySeed();

    /** The decoy groups the wallet keeps from earlier syncs, in adoption order (empty when it keeps none). */
    List<DecoyGroup> decoys();

    /** Whether {@code script} is one of the wallet's own. */
    boolean isMine(OutputScript script);

    /** The scripts of the wallet's look-ahead window (what {@link SyncUpdate#usedScripts()} may extend). */
    Set<OutputScript> windowScripts();

    /** The scripts a filter is matched against: the look-ahead window and the wallet's unspent outputs. */
    List<byte[]> watchedScripts();

    /** The script of the wallet's output at {@code outpoint}; null when it is not one of them. */
    byte[] ownedScript(TransactionOutPoint outpoint);

    /** Whether {@code tx} pays the wallet or spends one of its outputs. */
    boolean isRelevant(Transaction tx);

    /** Applies one verified update now, in the order {@link SyncUpdate}'s fields say; nothing is saved yet. */
    void apply(SyncUpdate update);

    /** Saves what the updates applied so far changed (called after each verified step). */
    void save();
}
