package org.blockfilter.bitcoinj.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.wallet.DeterministicKeyChain;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.bitcoinj.WalletScripts;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.sync.DecoyGroup;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.SyncTarget;
import org.blockfilter.wallet.sync.SyncUpdate;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * A bitcoinj {@link Wallet} as the sync engine's {@link SyncTarget}. The verified block-header and
 * filter-header chains and the checkpoints live here, in memory (a restart verifies them again from
 * the base checkpoint); the scan position is bitcoinj's: the height its block chain has reached,
 * which the adapter's scan reads and advances ({@link #setScanned}). The scripts are the wallet's
 * own ({@link WalletScripts}), read afresh on every call. {@link #apply} is the one place the
 * verified chains change; a {@link SyncUpdate} never carries transactions here (the adapter's scan
 * hands blocks to bitcoinj instead). Not thread-safe: one sync at a time.
 */
public final class WalletTarget implements SyncTarget {
    private final Chain chain;
    private final Wallet wallet;
    private final int birthday;
    private final VerifiedHeaderChain headers;
    private FilterHeaderChain filterHeaders;
    private List<Sha256Hash> checkpoints = List.of();
    private int scanned;

    /**
     * A target whose verified chains start at {@code base}, for a wallet whose block chain has reached {@code
     * scanned}; filter headers start at the checkpoint at or below {@code scanned + 1} where the sources agree on
     * one, at {@code base} otherwise.
     */
    public WalletTarget(Chain chain, Wallet wallet, HeaderCheckpoint base, int scanned) {
        this.chain = chain;
        this.wallet = wallet;
        this.headers = VerifiedHeaderChain.fromCheckpoint(chain, base);
        this.filterHeaders = FilterHeaderChain.unanchored(base.height());
        this.birthday = scanned + 1;
        this.scanned = scanned;
    }

    /** Records the height bitcoinj's block chain has reached on the verified chain. */
    public void setScanned(int height) {
        scanned = height;
    }

    @Override
    public Chain chain() {
        return chain;
    }

    @Override
    public VerifiedHeaderChain headers() {
        return headers;
    }

    @Override
    public FilterHeaderChain filterHeaders() {
        return filterHeaders;
    }

    @Override
    public List<Sha256Hash> checkpoints() {
        return checkpoints;
    }

    @Override
    public int scannedHeight() {
        return scanned;
    }

    @Override
    public int birthdayHeight() {
        return Math.max(birthday, headers.baseHeight());
    }

    /** SHA-256 of a tag and the extended public keys of the wallet's key chains, which never leave the wallet. */
    @Override
    public byte[] decoySeed() {
        MessageDigest d;
        try {
            d = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        d.update("blockfilter/bitcoinj-decoys/v1".getBytes(StandardCharsets.UTF_8));
        for (DeterministicKeyChain c : wallet.getActiveKeyChains()) {
            d.update(c.getWatchingKey().serializePubB58(wallet.network()).getBytes(StandardCharsets.UTF_8));
        }
        return d.digest();
    }

    /** None: the adapter's scan downloads no decoy blocks. */
    @Override
    public List<DecoyGroup> decoys() {
        return List.of();
    }

    @Override
    public boolean isMine(OutputScript script) {
        return windowScripts().contains(script);
    }

    @Override
    public Set<OutputScript> windowScripts() {
        return WalletScripts.of(wallet);
    }

    @Override
    public List<byte[]> watchedScripts() {
        List<byte[]> out = new ArrayList<>();
        for (OutputScript s : windowScripts()) {
            out.add(s.bytes());
        }
        return out;
    }

    @Override
    public byte[] ownedScript(TransactionOutPoint outpoint) {
        Transaction tx = wallet.getTransaction(outpoint.hash());
        if (tx == null || outpoint.index() >= tx.getOutputs().size()) {
            return null;
        }
        TransactionOutput o = tx.getOutput(outpoint.index());
        return o.isMine(wallet) ? o.getScriptBytes() : null;
    }

    @Override
    public boolean isRelevant(Transaction tx) {
        return wallet.isTransactionRelevant(tx);
    }

    @Override
    public void apply(SyncUpdate u) {
        u.headerFork().ifPresent(fork -> {
            if (fork < headers.tipHeight()) {
                headers.truncate(fork);
                keepFilterHeaders(fork);
                checkpoints = checkpoints.subList(0, Math.min(checkpoints.size(), fork / Bip157.CHECKPOINT_INTERVAL));
                scanned = Math.min(scanned, fork);
            }
            List<byte[]> branch = u.headers();
            if (!branch.isEmpty()) {
                headers.connect(fork + 1, branch);
            }
        });
        u.filterHeaderStart().ifPresent(s -> filterHeaders = new FilterHeaderChain(s.base(), s.anchor()));
        u.keepFilterHeadersThrough().ifPresent(this::keepFilterHeaders);
        if (!u.filterHeaders().isEmpty()) {
            filterHeaders.append(u.filterHeaders());
        }
        u.checkpoints().ifPresent(c -> checkpoints = List.copyOf(c));
        u.scannedHeight().ifPresent(h -> scanned = Math.min(scanned, h));
        if (!u.transactions().isEmpty()) {
            throw new IllegalStateException("the bitcoinj adapter takes blocks, not transactions, from a sync");
        }
    }

    /** Filter headers above {@code height} go; below the chain's anchor it starts again at the header chain's base. */
    private void keepFilterHeaders(int height) {
        if (height < filterHeaders.base() - 1) {
            filterHeaders = FilterHeaderChain.unanchored(headers.baseHeight());
        } else {
            filterHeaders.truncate(height);
        }
    }

    /** The wallet is saved by the adapter's scan, with bitcoinj's block store beside it; the verified chains are not. */
    @Override
    public void save() {}
}
