package org.blockfilter.wallet.sync;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.WalletUpdates;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.Utxo;

/**
 * Our own wallet as a {@link SyncTarget}: updates go to {@link WalletUpdates#apply}, saves to {@link
 * LightWallet#save()}. Not thread-safe, as the wallet.
 */
final class LightWalletTarget implements SyncTarget {
    private final LightWallet wallet;

    LightWalletTarget(LightWallet wallet) {
        this.wallet = wallet;
    }

    @Override
    public Chain chain() {
        return wallet.chain();
    }

    @Override
    public VerifiedHeaderChain headers() {
        return wallet.headers();
    }

    @Override
    public FilterHeaderChain filterHeaders() {
        return wallet.filterHeaders();
    }

    @Override
    public List<Sha256Hash> checkpoints() {
        return wallet.checkpoints();
    }

    @Override
    public int scannedHeight() {
        return wallet.scannedHeight();
    }

    @Override
    public int birthdayHeight() {
        return wallet.birthdayHeight();
    }

    @Override
    public byte[] decoySeed() {
        return BlockFetcher.seed(List.copyOf(wallet.keys().accounts()));
    }

    @Override
    public List<DecoyGroup> decoys() {
        return wallet.decoys();
    }

    @Override
    public boolean isMine(OutputScript script) {
        return wallet.keys().isMine(script);
    }

    @Override
    public Set<OutputScript> windowScripts() {
        return new LinkedHashSet<>(wallet.keys().watchedScripts());
    }

    @Override
    public List<byte[]> watchedScripts() {
        Set<OutputScript> all = windowScripts();
        for (Utxo u : wallet.ledger().utxos(false)) {
            all.add(u.script());
        }
        return all.stream().map(OutputScript::bytes).toList();
    }

    @Override
    public byte[] ownedScript(TransactionOutPoint outpoint) {
        return wallet.ledger()
                .ownedOutput(outpoint)
                .map(TransactionOutput::getScriptBytes)
                .orElse(null);
    }

    @Override
    public boolean isRelevant(Transaction tx) {
        return wallet.ledger().isRelevant(tx);
    }

    @Override
    public void apply(SyncUpdate update) {
        WalletUpdates.apply(wallet, update);
    }

    @Override
    public void save() {
        wallet.save();
    }
}
