package org.blockfilter.wallet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.labels.Labels;
import org.blockfilter.wallet.ledger.Ledger;
import org.blockfilter.wallet.store.FileKey;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.store.WalletFile;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.store.WalletFileException;
import org.blockfilter.wallet.sync.DecoyGroup;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * A light wallet and its files: keys (mnemonic always sealed; the rest sealed too or plain, see
 * {@link Sealing}), the verified block-header and filter-header chains, the sync position and the
 * ledger. The document (keys, ledger, tip records) is {@link WalletFormat}; the headers live in
 * flat files that grow by appends ({@link WalletStorage}); {@link #save()} writes what changed
 * under the wallet's lock, merged with other processes' saves ({@link WalletMerge}).
 *
 * <p>Mutable; not thread-safe: one sync or spend at a time. No method returns null except where
 * documented.
 */
public final class LightWallet {
    private final Path file;
    private final Chain chain;
    private final WalletKeys keys;
    final SealedSecret secret;
    private final Ledger ledger;
    private final Labels labels = new Labels();
    /** The fetch policy's decoy groups, in adoption order; followed by every sync. */
    final List<DecoyGroup> decoys = new ArrayList<>();
    /** The birthday height; -1 for a wallet born at the tip its first sync sees (until that sync). */
    int birthdayHeight;
    /** The birthday as a time; for a wallet born at the tip, its creation time until the birthday is fixed. */
    Long birthdayTime;

    final WalletStorage storage;
    VerifiedHeaderChain headers;
    FilterHeaderChain filterHeaders;
    int scannedHeight;
    /** The file's content as this object last read or wrote it: the base of the merge in {@link #save()}. */
    WalletFileContent baseline;
    /** The key of a file sealed whole, derived once at load or create; null for a plain file. */
    private FileKey fileKey;

    private long lastSaveBytes;

    LightWallet(
            Path file,
            Chain chain,
            WalletKeys keys,
            SealedSecret secret,
            int birthdayHeight,
            Long birthdayTime,
            HeaderCheckpoint base) {
        this.file = file;
        this.chain = chain;
        this.keys = keys;
        this.secret = secret;
        this.ledger = new Ledger(keys::isMine);
        this.birthdayHeight = birthdayHeight;
        this.birthdayTime = birthdayTime;
        this.storage = new WalletStorage(file);
        this.headers = VerifiedHeaderChain.fromCheckpoint(chain, base);
        this.filterHeaders = FilterHeaderChain.unanchored(base.height());
        this.scannedHeight = Math.max(-1, Math.max(birthdayHeight, base.height()) - 1);
    }

    /**
     * Where sync starts: a height, a time (epoch seconds) resolved against the header chain, or
     * the tip the first sync sees ({@link #atTip()}: a new mnemonic has received nothing before).
     */
    public record Birthday(int height, Long epochSeconds, boolean fromTip) {
        /** A birthday at a block height: sync scans from there on (the height must be >= 0). */
        public static Birthday ofHeight(int height) {
            if (height < 0) {
                throw new IllegalArgumentException("birthday height must be >= 0, got " + height);
            }
            return new Birthday(height, null, false);
        }

        /**
         * A birthday at a time (seconds since the epoch): sync scans from the first block whose time is not earlier,
         * once the headers reach it.
         */
        public static Birthday ofTime(long epochSeconds) {
            return new Birthday(0, epochSeconds, false);
        }

        /**
         * Born now: the first sync scans from the tip it sees (or from the first block after now,
         * less two hours, if that is lower: a payment between create and the first sync is found),
         * and the header chain starts at the last checkpoint.
         */
        public static Birthday atTip() {
            return new Birthday(-1, java.time.Instant.now().getEpochSecond(), true);
        }
    }

    /**
     * Writes a new wallet of {@code keys} (public) and {@code secret} (the sealed mnemonic; null
     * for watch-only), sealed whole with {@code fileKey} (null: plain), its header chain starting at
     * the highest of {@code checkpoints} at or below the birthday. {@link NewWallet} builds the
     * keys from a mnemonic, an xpub or descriptors.
     */
    static LightWallet create(
            Path file,
            Chain chain,
            WalletKeys keys,
            SealedSecret secret,
            Birthday birthday,
            FileKey fileKey,
            List<HeaderCheckpoint> checkpoints) {
        LightWallet w = new LightWallet(
                file,
                chain,
                keys,
                secret,
                birthday.height(),
                birthday.epochSeconds(),
                ChainStart.baseFor(chain, checkpoints, birthday));
        w.write(fileKey);
        return w;
    }

    /** Writes a new wallet: refuses an existing document; header files left by a deleted wallet are overwritten. */
    private void write(FileKey key) {
        fileKey = key;
        storage.fresh();
        headers.attach(storage.headerFile());
        filterHeaders.attach(storage.filterHeaderFile());
        WalletFileContent c = WalletFormat.content(this);
        WalletFile.create(file, c, key, () -> storage.writeRecords(file, this, null, c, key));
        storage.committed(this, c);
        baseline = c;
    }

    /**
     * Reads and checks the wallet document: every field in range, the tip records against the
     * header files, each transaction's bytes hashing to its txid and its block in the stored
     * chain. Headers are read only as far as that needs. A file of the one-document format is
     * migrated first. Anything else is a {@link WalletFileException} that names the file and the field.
     */
    public static LightWallet load(Path file) {
        return load(file, null);
    }

    /**
     * {@link #load(Path)} for a wallet of any sealing: a file sealed whole is opened with {@code
     * passphrase} ({@code PassphraseRequiredException} when null, {@code WrongPassphraseException}
     * when wrong); a plain file ignores it.
     */
    public static LightWallet load(Path file, char[] passphrase) {
        WalletFile.Opened opened = WalletFile.open(file, passphrase);
        try {
            WalletFileContent c = opened.legacy() == null
                    ? opened.content()
                    : WalletFile.migrate(file, opened.key(), legacy -> WalletFormat.migrate(file, legacy));
            LightWallet w = WalletFormat.fromContent(file, c);
            w.storage.committed(w, c);
            w.baseline = c;
            w.fileKey = opened.key();
            return w;
        } catch (WalletFileException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new WalletFileException(
                    "wallet file " + file.toAbsolutePath() + " is damaged or was edited: " + e.getMessage(), e);
        }
    }

    /**
     * Saves under the wallet file's lock as a read-modify-write: what another process saved since
     * this one loaded (or last saved) the file is merged in first ({@link WalletMerge}), so no
     * update is lost. Header records are appended (or rewritten from a reorg's fork) before the
     * document that commits them ({@link WalletStorage}), so a save costs bytes in proportion to
     * what changed, not to the chain.
     */
    public void save() {
        saveAs(fileKey);
    }

    private void saveAs(FileKey writeKey) {
        if (birthdayHeight < 0 && headers.tipHeight() > headers.baseHeight()) {
            fixBirthday(); // the first sync has its headers: what it scans from is fixed now, even if it stops here
        }
        long[] records = new long[1];
        WalletFileContent written = WalletFile.update(
                file,
                fileKey,
                writeKey,
                current -> {
                    if (current != null && baseline != null && !current.equals(baseline)) {
                        WalletMerge.absorb(this, baseline, current);
                    }
                    WalletFileContent next = WalletFormat.content(this);
                    storage.writeRecords(file, this, current, next, writeKey);
                    records[0] = storage.takeRecordBytes();
                    return next;
                },
                WalletFile.DEFAULT_LOCK_WAIT);
        storage.committed(this, written);
        baseline = written;
        fileKey = writeKey;
        lastSaveBytes = records[0] + WalletFile.lastWriteBytes();
    }

    /** Bytes the last {@link #save()} wrote: the document plus the header records it appended or rewrote. */
    public long lastSaveBytes() {
        return lastSaveBytes;
    }

    /** How the file is sealed now. */
    public Sealing sealing() {
        return fileKey != null ? Sealing.ALL : secret != null ? Sealing.SECRET_ONLY : Sealing.NONE;
    }

    /**
     * Rewrites the document sealed as {@code target} says (a save, merged like {@link #save()}).
     * Sealing whole needs {@code passphrase}; for a wallet with keys it must be the one that opens
     * the mnemonic, so one passphrase keeps opening everything. A new salt is drawn each time.
     */
    public void reseal(Sealing target, char[] passphrase, int scryptN) {
        if (target == Sealing.NONE && secret != null) {
            throw new IllegalArgumentException(
                    "a wallet with keys always seals its mnemonic: use --seal all or --seal secret-only");
        }
        if (target == Sealing.SECRET_ONLY && secret == null) {
            throw new IllegalArgumentException(
                    "a watch-only wallet has no secret to seal: use --seal all or --seal none");
        }
        FileKey next = null;
        if (target == Sealing.ALL) {
            if (passphrase == null || passphrase.length == 0) {
                throw new IllegalArgumentException("a passphrase is required to seal the whole wallet file");
            }
            if (secret != null) {
                unlock(passphrase); // WrongPassphraseException unless it opens the mnemonic
            }
            next = FileKey.create(passphrase, scryptN);
        }
        saveAs(next);
    }

    /** The keys with private keys, after checking the passphrase; throws {@code WrongPassphraseException}. */
    public WalletKeys unlock(char[] passphrase) {
        if (secret == null) {
            throw new IllegalStateException("this wallet is watch-only: it has no private keys");
        }
        byte[] words;
        try {
            words = secret.open(passphrase);
        } catch (WalletFileException e) {
            throw new WalletFileException("wallet file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        NewWallet.Secret s = NewWallet.Secret.decode(words);
        Arrays.fill(words, (byte) 0);
        WalletKeys full = WalletKeys.fromMnemonic(
                s.mnemonic(),
                s.bip39Passphrase(),
                network(),
                keys.gapLimit(),
                keys.accounts().stream().map(HdAccount::kind).toList());
        for (HdAccount a : keys.accounts()) {
            full.restoreChainState(a.kind(), false, keys.chainState(a.kind(), false));
            full.restoreChainState(a.kind(), true, keys.chainState(a.kind(), true));
        }
        return full;
    }

    static WalletKeys publicOnly(WalletKeys keys) {
        List<HdAccount> pub = new ArrayList<>();
        for (HdAccount a : keys.accounts()) {
            pub.add(a.publicOnly());
        }
        return WalletKeys.of(keys.network(), keys.gapLimit(), pub);
    }

    /** The wallet file; the header, filter-header and checkpoint files live beside it. */
    public Path file() {
        return file;
    }

    /** The bitcoinj network of the wallet's addresses and keys (testnet4 wallets: bitcoinj's TESTNET; see {@link Chain#addressNetwork()}). */
    public Network network() {
        return chain.addressNetwork();
    }

    /** The network the wallet is on. */
    public Chain chain() {
        return chain;
    }

    /** The wallet's accounts and the scripts it watches; without private keys in a watch-only wallet. */
    public WalletKeys keys() {
        return keys;
    }

    /** The wallet's transactions, coins and balance as far as it has scanned. */
    public Ledger ledger() {
        return ledger;
    }

    /** The BIP 329 labels, saved with the wallet. */
    public Labels labels() {
        return labels;
    }

    /** Whether the wallet has no seed: it watches and builds unsigned PSBTs but cannot sign. */
    public boolean watchOnly() {
        return secret == null;
    }

    /** The verified block-header chain, kept in the append-only header file beside the wallet. */
    public VerifiedHeaderChain headers() {
        return headers;
    }

    /** The verified BIP 157 filter-header chain, kept in its own file beside the wallet. */
    public FilterHeaderChain filterHeaders() {
        return filterHeaders;
    }

    /** Replaces the filter-header chain (a new start); its headers go to the wallet's filter-header file. */
    public void resetFilterHeaders(FilterHeaderChain chain) {
        chain.attach(storage.filterHeaderFile());
        chain.committed(filterHeaders.committedHeight());
        this.filterHeaders = chain;
    }

    /** A filter-header chain that starts where the block-header chain does, its anchor to be taken from the sources. */
    public FilterHeaderChain newFilterHeaderChain() {
        return FilterHeaderChain.unanchored(headers.baseHeight());
    }

    /**
     * The BIP 157 checkpoints (the filter header at every 1,000th height) the wallet has verified and holds its sources
     * to.
     */
    public List<Sha256Hash> checkpoints() {
        return storage.checkpoints();
    }

    /** Replaces the verified checkpoints; they are written when the wallet is saved. */
    public void setCheckpoints(List<Sha256Hash> checkpoints) {
        storage.setCheckpoints(List.copyOf(checkpoints));
    }

    /**
     * The birthday height. Given as a time, it is resolved against the header chain once it is
     * long enough. A wallet born at the tip takes the header tip at the first call, which a sync
     * makes after its header phase, and keeps it (saved with the wallet).
     */
    public int birthdayHeight() {
        if (birthdayHeight < 0) {
            fixBirthday();
        }
        if (birthdayTime != null) {
            return Math.max(Math.max(birthdayHeight, headers.baseHeight()), headers.heightAtTime(birthdayTime));
        }
        return Math.max(birthdayHeight, headers.baseHeight());
    }

    /** A wallet born at the tip: its birthday becomes the lower of the header tip and the first block since it was created. */
    private void fixBirthday() {
        int tip = headers.tipHeight();
        birthdayHeight = birthdayTime == null ? tip : Math.min(tip, headers.heightAtTime(birthdayTime));
        birthdayTime = null;
        scannedHeight = Math.max(scannedHeight, birthdayHeight - 1);
    }

    /** The highest block whose filter the wallet has matched, or one below its birthday before the first scan. */
    public int scannedHeight() {
        return scannedHeight;
    }

    /** The decoy groups the fetch policy adopted and every sync follows, in adoption order (a copy). */
    public List<DecoyGroup> decoys() {
        return List.copyOf(decoys);
    }

    /** Keeps {@code adopted} (after the groups kept so far). */
    void addDecoys(List<DecoyGroup> adopted) {
        decoys.addAll(adopted);
    }

    /** Forgets the decoy groups adopted for blocks above {@code height} (they left the chain). */
    void dropDecoysAbove(int height) {
        decoys.removeIf(g -> g.adoptedAt() > height);
    }

    /** Sets the highest scanned block, e.g. to rescan from an earlier height; saved with the wallet. */
    public void setScannedHeight(int height) {
        this.scannedHeight = height;
    }

    /**
     * Forgets the filter headers and the scan from {@code height} on, so the next sync fetches
     * them again from the sources and rescans; the transactions found stay (their blocks were
     * checked against the header chain).
     */
    public void rescanFrom(int height) {
        if (height < 0) {
            throw new IllegalArgumentException("rescan height must be >= 0, got " + height);
        }
        if (height - 1 < filterHeaders.base() - 1 || !filterHeaders.anchored()) {
            resetFilterHeaders(newFilterHeaderChain());
        } else {
            filterHeaders.truncate(height - 1);
        }
        scannedHeight = Math.min(scannedHeight, Math.max(height, headers.baseHeight()) - 1);
    }
}
