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
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.Utxo;

/**
 * What the sync phases know of the wallet, read-only: its verified block-header and filter-header
 * chains, checkpoints, scan position, birthday, watched scripts and owned outputs. It reads the
 * wallet as it is now, so each {@link SyncUpdate} the engine has applied is visible to the next
 * request; the phases change the wallet only by handing updates to the engine. Not thread-safe
 * (one sync at a time, as the wallet).
 */
final class SyncState {
    private final LightWallet wallet;

    SyncState(LightWallet wallet) {
        this.wallet = wallet;
    }

    Network network() {
        return wallet.network();
    }

    /** The network's name as the wallet file writes it, e.g. {@code regtest}. */
    String networkName() {
        return wallet.chain().cliName();
    }

    // ---------------------------------------------------------------- block headers

    /** The lowest height of the verified header chain; nothing below it is known. */
    int headerBase() {
        return wallet.headers().baseHeight();
    }

    int headerTip() {
        return wallet.headers().tipHeight();
    }

    Sha256Hash headerTipHash() {
        return wallet.headers().tipHash();
    }

    Sha256Hash blockHash(int height) {
        return wallet.headers().hash(height);
    }

    BigInteger workAbove(int height) {
        return wallet.headers().workAbove(height);
    }

    /** {@link VerifiedHeaderChain#validateBranch}: reads the chain, changes nothing. */
    List<Block> validateBranch(int startHeight, List<byte[]> raw) {
        return wallet.headers().validateBranch(startHeight, raw);
    }

    // ---------------------------------------------------------------- filter headers

    int filterHeaderBase() {
        return wallet.filterHeaders().base();
    }

    Sha256Hash filterHeaderAnchor() {
        return wallet.filterHeaders().anchor();
    }

    /** Whether the filter-header chain knows the header below its base (a chain from a checkpoint learns it from the sources). */
    boolean filterHeadersAnchored() {
        return wallet.filterHeaders().anchored();
    }

    int filterHeaderTip() {
        return wallet.filterHeaders().tipHeight();
    }

    /** The verified filter header at {@code height} ({@code base - 1} gives the anchor). */
    Sha256Hash filterHeader(int height) {
        return wallet.filterHeaders().header(height);
    }

    List<Sha256Hash> checkpoints() {
        return wallet.checkpoints();
    }

    int scannedHeight() {
        return wallet.scannedHeight();
    }

    int birthdayHeight() {
        return wallet.birthdayHeight();
    }

    /** The lowest height a sync scans and holds filter headers for: the birthday, or the filter chain's base. */
    int lowestScanHeight() {
        return Math.max(
                0, Math.max(wallet.birthdayHeight(), wallet.filterHeaders().base()));
    }

    /** The decoy groups the wallet keeps, in adoption order. */
    List<DecoyGroup> decoys() {
        return wallet.decoys();
    }

    // ---------------------------------------------------------------- keys and ledger

    List<HdAccount> accounts() {
        return List.copyOf(wallet.keys().accounts());
    }

    boolean isMine(OutputScript script) {
        return wallet.keys().isMine(script);
    }

    /** Every script of the gap window (what {@link SyncUpdate#usedScripts()} may extend). */
    Set<OutputScript> windowScripts() {
        return new LinkedHashSet<>(wallet.keys().watchedScripts());
    }

    /** The scripts a filter is matched against: the gap window and those of unspent owned outputs. */
    List<byte[]> watchedScripts() {
        Set<OutputScript> all = windowScripts();
        for (Utxo u : wallet.ledger().utxos(false)) {
            all.add(u.script());
        }
        return all.stream().map(OutputScript::bytes).toList();
    }

    /** The script of the wallet's output at {@code outpoint}; null when it is not one of them. */
    byte[] ownedScript(TransactionOutPoint outpoint) {
        return wallet.ledger()
                .ownedOutput(outpoint)
                .map(TransactionOutput::getScriptBytes)
                .orElse(null);
    }

    /** Whether {@code tx} pays the wallet or spends one of its outputs. */
    boolean isRelevant(Transaction tx) {
        return wallet.ledger().isRelevant(tx);
    }

    /** The filter evidence of a verified block, with the prevout scripts the wallet knows. */
    FilterEvidence evidence(Block block) {
        return FilterEvidence.of(block, this::ownedScript);
    }
}
