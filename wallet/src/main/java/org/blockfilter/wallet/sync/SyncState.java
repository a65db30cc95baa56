package org.blockfilter.wallet.sync;

import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * What the sync phases know of the {@link SyncTarget}, read-only: its verified block-header and
 * filter-header chains, checkpoints, scan position, birthday, watched scripts and owned outputs. It
 * reads the target as it is now, so each {@link SyncUpdate} the engine has applied is visible to the next
 * request; the phases change the wallet only by handing updates to the engine. Not thread-safe
 * (one sync at a time, as the wallet).
 */
final class SyncState {
    private final SyncTarget target;

    SyncState(SyncTarget target) {
        this.target = target;
    }

    Network network() {
        return target.chain().addressNetwork();
    }

    /** The network's name as the wallet file writes it, e.g. {@code regtest}. */
    String networkName() {
        return target.chain().cliName();
    }

    // ---------------------------------------------------------------- block headers

    /** The lowest height of the verified header chain; nothing below it is known. */
    int headerBase() {
        return target.headers().baseHeight();
    }

    int headerTip() {
        return target.headers().tipHeight();
    }

    Sha256Hash headerTipHash() {
        return target.headers().tipHash();
    }

    Sha256Hash blockHash(int height) {
        return target.headers().hash(height);
    }

    BigInteger workAbove(int height) {
        return target.headers().workAbove(height);
    }

    /** {@link VerifiedHeaderChain#validateBranch}: reads the chain, changes nothing. */
    List<Block> validateBranch(int startHeight, List<byte[]> raw) {
        return target.headers().validateBranch(startHeight, raw);
    }

    // ---------------------------------------------------------------- filter headers

    int filterHeaderBase() {
        return target.filterHeaders().base();
    }

    Sha256Hash filterHeaderAnchor() {
        return target.filterHeaders().anchor();
    }

    /** Whether the filter-header chain knows the header below its base (a chain from a checkpoint learns it from the sources). */
    boolean filterHeadersAnchored() {
        return target.filterHeaders().anchored();
    }

    int filterHeaderTip() {
        return target.filterHeaders().tipHeight();
    }

    /** The verified filter header at {@code height} ({@code base - 1} gives the anchor). */
    Sha256Hash filterHeader(int height) {
        return target.filterHeaders().header(height);
    }

    List<Sha256Hash> checkpoints() {
        return target.checkpoints();
    }

    int scannedHeight() {
        return target.scannedHeight();
    }

    int birthdayHeight() {
        return target.birthdayHeight();
    }

    /** The lowest height a sync scans and holds filter headers for: the birthday, or the filter chain's base. */
    int lowestScanHeight() {
        return Math.max(
                0, Math.max(target.birthdayHeight(), target.filterHeaders().base()));
    }

    /** The decoy groups the wallet keeps, in adoption order. */
    List<DecoyGroup> decoys() {
        return target.decoys();
    }

    // ---------------------------------------------------------------- keys and ledger

    /** The secret the fetch policy's decoys are derived from. */
    byte[] decoySeed() {
        return target.decoySeed();
    }

    boolean isMine(OutputScript script) {
        return target.isMine(script);
    }

    /** Every script of the gap window (what {@link SyncUpdate#usedScripts()} may extend). */
    Set<OutputScript> windowScripts() {
        return new LinkedHashSet<>(target.windowScripts());
    }

    /** The scripts a filter is matched against: the gap window and those of unspent owned outputs. */
    List<byte[]> watchedScripts() {
        return target.watchedScripts();
    }

    /** The script of the wallet's output at {@code outpoint}; null when it is not one of them. */
    byte[] ownedScript(TransactionOutPoint outpoint) {
        return target.ownedScript(outpoint);
    }

    /** Whether {@code tx} pays the wallet or spends one of its outputs. */
    boolean isRelevant(Transaction tx) {
        return target.isRelevant(tx);
    }

    /** The filter evidence of a verified block, with the prevout scripts the wallet knows. */
    FilterEvidence evidence(Block block) {
        return FilterEvidence.of(block, this::ownedScript);
    }
}
