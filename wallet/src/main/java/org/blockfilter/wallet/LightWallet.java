package org.blockfilter.wallet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.KeyFormatException;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.Ledger;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.store.FileKey;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.store.WalletFile;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.store.WalletFileException;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * A light wallet and its file: keys (mnemonic always sealed; the rest sealed too or plain, see
 * {@link Sealing}), the verified
 * block-header and filter-header chains, the sync position and the ledger. {@link #save()}
 * writes everything atomically.
 *
 * <p>Mutable; not thread-safe: one sync or spend at a time. No method returns null except where
 * documented.
 */
public final class LightWallet {
    private static final int MAX_GAP_LIMIT = 10_000;
    private static final int MAX_INDEX = 1 << 30;

    private final Path file;
    private final Network network;
    private final WalletKeys keys;
    private final SealedSecret secret;
    private final Ledger ledger;
    private final int birthdayHeight;
    private final Long birthdayTime;
    private VerifiedHeaderChain headers;
    private FilterHeaderChain filterHeaders;
    private List<Sha256Hash> checkpoints = List.of();
    private int scannedHeight;
    /** The file's content as this object last read or wrote it: the base of the merge in {@link #save()}. */
    private WalletFileContent baseline;
    /** The key of a file sealed whole, derived once at load or create; null for a plain file. */
    private FileKey fileKey;

    private LightWallet(
            Path file, Network network, WalletKeys keys, SealedSecret secret, int birthdayHeight, Long birthdayTime) {
        this.file = file;
        this.network = network;
        this.keys = keys;
        this.secret = secret;
        this.ledger = new Ledger(keys::isMine);
        this.birthdayHeight = birthdayHeight;
        this.birthdayTime = birthdayTime;
        this.headers = new VerifiedHeaderChain(network);
        this.filterHeaders = new FilterHeaderChain(0, FilterHeaders.GENESIS_PREV);
        this.scannedHeight = birthdayHeight - 1;
    }

    /** Where sync starts: a height, or a time (epoch seconds) resolved against the header chain. */
    public record Birthday(int height, Long epochSeconds) {
        public static Birthday ofHeight(int height) {
            if (height < 0) {
                throw new IllegalArgumentException("birthday height must be >= 0, got " + height);
            }
            return new Birthday(height, null);
        }

        public static Birthday ofTime(long epochSeconds) {
            return new Birthday(0, epochSeconds);
        }
    }

    /**
     * A new wallet from a mnemonic (new or restored), its mnemonic sealed with {@code passphrase}
     * and the rest plain ({@link Sealing#SECRET_ONLY}); written to {@code file}.
     */
    public static LightWallet create(
            Path file,
            Network network,
            List<String> mnemonic,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN) {
        return create(file, network, mnemonic, passphrase, kinds, gapLimit, birthday, scryptN, Sealing.SECRET_ONLY);
    }

    /**
     * A new wallet from a mnemonic, sealed as {@code sealing} says ({@link Sealing#ALL} or {@link
     * Sealing#SECRET_ONLY}) with {@code passphrase} (the same passphrase seals the mnemonic and, for
     * ALL, the whole file); written to {@code file}.
     */
    public static LightWallet create(
            Path file,
            Network network,
            List<String> mnemonic,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN,
            Sealing sealing) {
        if (sealing == Sealing.NONE) {
            throw new IllegalArgumentException(
                    "a wallet with keys always seals its mnemonic: use --seal all or --seal secret-only");
        }
        if (passphrase.length == 0) {
            throw new IllegalArgumentException("a passphrase is required to seal the wallet's keys");
        }
        WalletKeys keys = WalletKeys.fromMnemonic(mnemonic, "", network, gapLimit, kinds);
        WalletKeys pub = publicOnly(keys);
        SealedSecret sealed =
                SealedSecret.seal(String.join(" ", mnemonic).getBytes(StandardCharsets.UTF_8), passphrase, scryptN);
        LightWallet w = new LightWallet(file, network, pub, sealed, birthday.height(), birthday.epochSeconds());
        w.fileKey = sealing == Sealing.ALL ? FileKey.create(passphrase, scryptN) : null;
        w.baseline = w.content();
        WalletFile.create(file, w.baseline, w.fileKey);
        return w;
    }

    /** A watch-only wallet for one account's extended public key, not sealed ({@link Sealing#NONE}). */
    public static LightWallet watchOnly(
            Path file, Network network, String xpub, AddressKind kind, int gapLimit, Birthday birthday) {
        return watchOnly(file, network, xpub, kind, gapLimit, birthday, Sealing.NONE, null, SealedSecret.DEFAULT_N);
    }

    /**
     * A watch-only wallet sealed as {@code sealing} says: {@link Sealing#ALL} with {@code passphrase}
     * (scrypt cost {@code scryptN}), or {@link Sealing#NONE} (passphrase unused).
     */
    public static LightWallet watchOnly(
            Path file,
            Network network,
            String xpub,
            AddressKind kind,
            int gapLimit,
            Birthday birthday,
            Sealing sealing,
            char[] passphrase,
            int scryptN) {
        if (sealing == Sealing.SECRET_ONLY) {
            throw new IllegalArgumentException(
                    "a watch-only wallet has no secret to seal: use --seal all or --seal none");
        }
        WalletKeys keys = WalletKeys.of(network, gapLimit, List.of(HdAccount.watchOnly(xpub, kind, network)));
        LightWallet w = new LightWallet(file, network, keys, null, birthday.height(), birthday.epochSeconds());
        w.fileKey = sealing == Sealing.ALL ? FileKey.create(passphrase, scryptN) : null;
        w.baseline = w.content();
        WalletFile.create(file, w.baseline, w.fileKey);
        return w;
    }

    /**
     * Reads and checks the wallet file: every field in range, the block headers linked with valid
     * proof of work from genesis, the filter headers within the chain and agreeing with the stored
     * checkpoints, each transaction's bytes hashing to its txid and its block in the stored chain.
     * Anything else is a {@link WalletFileException} that names the file and the field.
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
        WalletFileContent c = opened.content();
        try {
            LightWallet w = restore(file, c);
            w.fileKey = opened.key();
            return w;
        } catch (WalletFileException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new WalletFileException(
                    "wallet file " + file.toAbsolutePath() + " is damaged or was edited: " + e.getMessage(), e);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException(what);
        }
    }

    private static LightWallet restore(Path file, WalletFileContent c) {
        check(
                c.network() != null
                        && c.accounts() != null
                        && c.headers() != null
                        && c.filterHeaders() != null
                        && c.checkpoints() != null
                        && c.transactions() != null,
                "a required field is missing");
        check(
                c.gapLimit() >= 1 && c.gapLimit() <= MAX_GAP_LIMIT,
                "gapLimit " + c.gapLimit() + " is outside 1.." + MAX_GAP_LIMIT);
        check(c.birthdayHeight() >= 0, "birthdayHeight " + c.birthdayHeight() + " is negative");
        check(!c.accounts().isEmpty(), "no accounts");
        for (WalletFileContent.Account a : c.accounts()) {
            check(
                    a.kind() != null
                            && java.util.Arrays.stream(AddressKind.values())
                                    .anyMatch(k -> k.name().equals(a.kind())),
                    "unknown account kind " + a.kind());
            check(
                    a.receiveUsed() >= -1
                            && a.receiveUsed() < MAX_INDEX
                            && a.changeUsed() >= -1
                            && a.changeUsed() < MAX_INDEX
                            && a.receiveIssued() >= 0
                            && a.receiveIssued() <= MAX_INDEX
                            && a.changeIssued() >= 0
                            && a.changeIssued() <= MAX_INDEX,
                    "address positions of the " + a.kind() + " account are out of range");
        }
        Network network = BitcoinNetwork.fromString(c.network())
                .orElseThrow(() -> new KeyFormatException("unknown network in wallet file: " + c.network(), null));
        List<HdAccount> accounts = new ArrayList<>();
        for (WalletFileContent.Account a : c.accounts()) {
            accounts.add(HdAccount.watchOnly(a.xpub(), AddressKind.valueOf(a.kind()), network));
        }
        WalletKeys keys = WalletKeys.of(network, c.gapLimit(), accounts);
        for (WalletFileContent.Account a : c.accounts()) {
            AddressKind kind = AddressKind.valueOf(a.kind());
            keys.restoreChainState(kind, false, new WalletKeys.ChainState(a.receiveUsed(), a.receiveIssued()));
            keys.restoreChainState(kind, true, new WalletKeys.ChainState(a.changeUsed(), a.changeIssued()));
        }
        LightWallet w = new LightWallet(file, network, keys, c.secret(), c.birthdayHeight(), c.birthdayTime());
        w.restoreChains(c);
        w.checkChains();
        for (WalletFileContent.Tx t : c.transactions()) {
            WalletTx tx = walletTx(t);
            if (tx.pending()) {
                check(tx.blockHash() == null, "pending transaction " + tx.txid() + " names a block");
            } else {
                check(
                        tx.height() <= w.headers.tipHeight()
                                && tx.blockHash() != null
                                && tx.blockHash().equals(w.headers.hash(tx.height())),
                        "transaction " + tx.txid() + " claims block " + tx.blockHash() + " at height " + tx.height()
                                + ", which is not in the stored block-header chain (tip " + w.headers.tipHeight()
                                + ")");
            }
            w.ledger.put(tx);
        }
        w.baseline = c;
        return w;
    }

    /** The stored chains agree with each other; a filter-header tail past the scan (older files) is dropped. */
    private void checkChains() {
        int tip = headers.tipHeight();
        check(
                filterHeaders.base() >= 0 && filterHeaders.base() <= tip + 1,
                "filterHeaderStart " + filterHeaders.base() + " is outside 0.." + (tip + 1));
        check(
                filterHeaders.tipHeight() <= tip,
                "filter headers reach height " + filterHeaders.tipHeight() + ", past the block-header tip " + tip);
        check(
                checkpoints.size() <= tip / Bip157.CHECKPOINT_INTERVAL,
                checkpoints.size() + " checkpoints stored, but the block-header chain (tip " + tip + ") has room for "
                        + tip / Bip157.CHECKPOINT_INTERVAL);
        for (int i = 0; i < checkpoints.size(); i++) {
            int h = (i + 1) * Bip157.CHECKPOINT_INTERVAL;
            if (h >= filterHeaders.base() - 1 && h <= filterHeaders.tipHeight()) {
                check(
                        filterHeaders.header(h).equals(checkpoints.get(i)),
                        "the stored filter header at " + h + " differs from the stored checkpoint");
            }
        }
        int highest = Math.max(birthdayHeight() - 1, filterHeaders.tipHeight());
        check(
                scannedHeight >= -1 && scannedHeight <= highest,
                "scannedHeight " + scannedHeight + " is outside -1.." + highest + " (the stored filter headers end at "
                        + filterHeaders.tipHeight() + ")");
        if (filterHeaders.tipHeight() > scannedHeight) {
            filterHeaders.truncate(Math.max(scannedHeight, filterHeaders.base() - 1));
        }
    }

    private void restoreChains(WalletFileContent c) {
        headers = VerifiedHeaderChain.restore(network, Base64.getDecoder().decode(c.headers()));
        byte[] fh = Base64.getDecoder().decode(c.filterHeaders());
        check(
                fh.length % 32 == 0 && (c.filterHeaderStart() == 0 || fh.length >= 32),
                "filterHeaders has " + fh.length + " bytes, not a whole number of 32-byte headers (with the anchor)");
        Sha256Hash anchor = c.filterHeaderStart() == 0
                ? FilterHeaders.GENESIS_PREV
                : Sha256Hash.wrap(Arrays.copyOfRange(fh, 0, 32));
        int first = c.filterHeaderStart() == 0 ? 0 : 32;
        filterHeaders = new FilterHeaderChain(c.filterHeaderStart(), anchor);
        List<Sha256Hash> list = new ArrayList<>();
        for (int i = first; i + 32 <= fh.length; i += 32) {
            list.add(Sha256Hash.wrap(Arrays.copyOfRange(fh, i, i + 32)));
        }
        filterHeaders.append(list);
        for (String cp : c.checkpoints()) {
            check(cp != null && cp.matches("[0-9a-f]{64}"), "malformed checkpoint " + cp);
        }
        checkpoints = c.checkpoints().stream().map(Sha256Hash::wrap).toList();
        scannedHeight = c.scannedHeight();
    }

    private static WalletTx walletTx(WalletFileContent.Tx t) {
        check(t.txid() != null && t.txid().matches("[0-9a-f]{64}"), "a transaction has no valid txid: " + t.txid());
        check(t.raw() != null && !t.raw().isEmpty(), "transaction " + t.txid() + " has no raw bytes");
        check(t.height() >= WalletTx.PENDING, "transaction " + t.txid() + " has height " + t.height());
        check(
                t.blockHash() == null || t.blockHash().matches("[0-9a-f]{64}"),
                "transaction " + t.txid() + " has a malformed block hash");
        WalletTx tx = new WalletTx(
                Sha256Hash.wrap(t.txid()),
                t.height(),
                t.blockHash() == null ? null : Sha256Hash.wrap(t.blockHash()),
                HexFormat.of().parseHex(t.raw()));
        Sha256Hash actual;
        try {
            actual = tx.tx().getTxId();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "raw bytes of transaction " + t.txid() + " do not parse: " + e.getMessage(), e);
        }
        check(
                actual.equals(tx.txid()),
                "raw bytes of transaction " + t.txid() + " do not hash to its txid (they hash to " + actual + ")");
        return tx;
    }

    /**
     * Saves under the wallet file's lock as a read-modify-write: what another process saved since
     * this one loaded (or last saved) the file is merged in first, so no update is lost. The merge
     * is three-way against the content this object last read or wrote: transactions the other
     * process added, confirmed or dropped are taken unless this process changed the same one (then
     * a confirmed version beats a pending one); address positions take the higher of the two; the
     * other process's chains and scan position are taken when this process did not move its own.
     */
    public void save() {
        saveAs(fileKey);
    }

    private void saveAs(FileKey writeKey) {
        baseline = WalletFile.update(
                file,
                fileKey,
                writeKey,
                current -> {
                    if (current != null && baseline != null && !current.equals(baseline)) {
                        absorb(current);
                    }
                    return content();
                },
                WalletFile.DEFAULT_LOCK_WAIT);
        fileKey = writeKey;
    }

    /** How the file is sealed now. */
    public Sealing sealing() {
        return fileKey != null ? Sealing.ALL : secret != null ? Sealing.SECRET_ONLY : Sealing.NONE;
    }

    /**
     * Rewrites the file sealed as {@code target} says (a save, merged like {@link #save()}). Sealing
     * whole needs {@code passphrase}; for a wallet with keys it must be the one that opens the
     * mnemonic, so one passphrase keeps opening everything. A new salt is drawn each time.
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

    private void absorb(WalletFileContent theirs) {
        WalletFileContent base = baseline;
        for (WalletFileContent.Account a : theirs.accounts()) {
            AddressKind kind = AddressKind.valueOf(a.kind());
            if (keys.account(kind).isEmpty()) {
                continue;
            }
            WalletKeys.ChainState r = keys.chainState(kind, false);
            WalletKeys.ChainState ch = keys.chainState(kind, true);
            keys.restoreChainState(
                    kind,
                    false,
                    new WalletKeys.ChainState(
                            Math.max(r.highestUsed(), a.receiveUsed()), Math.max(r.issued(), a.receiveIssued())));
            keys.restoreChainState(
                    kind,
                    true,
                    new WalletKeys.ChainState(
                            Math.max(ch.highestUsed(), a.changeUsed()), Math.max(ch.issued(), a.changeIssued())));
        }
        Map<String, WalletFileContent.Tx> baseTx = byTxid(base.transactions());
        Map<String, WalletFileContent.Tx> theirTx = byTxid(theirs.transactions());
        Map<String, WalletFileContent.Tx> mineTx = byTxid(txRecords());
        Set<String> ids = new LinkedHashSet<>(baseTx.keySet());
        ids.addAll(theirTx.keySet());
        for (String id : ids) {
            WalletFileContent.Tx b = baseTx.get(id);
            WalletFileContent.Tx t = theirTx.get(id);
            WalletFileContent.Tx m = mineTx.get(id);
            if (Objects.equals(t, b)) {
                continue; // they did not touch it
            }
            if (Objects.equals(m, b)) {
                if (t == null) {
                    ledger.remove(Sha256Hash.wrap(id));
                } else {
                    ledger.put(walletTx(t));
                }
            } else if (t != null && t.height() >= 0 && (m == null || m.height() < 0)) {
                ledger.put(walletTx(t));
            }
        }
        WalletFileContent mine = content();
        if (chainsOf(mine).equals(chainsOf(base)) && !chainsOf(theirs).equals(chainsOf(base))) {
            restoreChains(theirs);
        }
    }

    private static List<Object> chainsOf(WalletFileContent c) {
        return List.of(c.headers(), c.filterHeaderStart(), c.filterHeaders(), c.checkpoints(), c.scannedHeight());
    }

    private static Map<String, WalletFileContent.Tx> byTxid(List<WalletFileContent.Tx> txs) {
        Map<String, WalletFileContent.Tx> out = new LinkedHashMap<>();
        for (WalletFileContent.Tx t : txs) {
            out.put(t.txid(), t);
        }
        return out;
    }

    private List<WalletFileContent.Tx> txRecords() {
        return ledger.transactions().stream()
                .map(t -> new WalletFileContent.Tx(
                        t.txid().toString(),
                        t.height(),
                        t.blockHash() == null ? null : t.blockHash().toString(),
                        HexFormat.of().formatHex(t.raw())))
                .toList();
    }

    private WalletFileContent content() {
        List<WalletFileContent.Account> accounts = new ArrayList<>();
        for (HdAccount a : keys.accounts()) {
            WalletKeys.ChainState r = keys.chainState(a.kind(), false);
            WalletKeys.ChainState ch = keys.chainState(a.kind(), true);
            accounts.add(new WalletFileContent.Account(
                    a.kind().name(),
                    a.extendedPublicKey(),
                    r.highestUsed(),
                    r.issued(),
                    ch.highestUsed(),
                    ch.issued()));
        }
        // The anchor is stored first when the chain does not start at genesis.
        List<Sha256Hash> fh = new ArrayList<>();
        if (filterHeaders.base() > 0) {
            fh.add(filterHeaders.anchor());
        }
        // Filter headers are persisted only as far as their filters were checked against them
        // (the scan); the rest was only a source's word and is fetched again next time.
        List<Sha256Hash> all = filterHeaders.headers();
        int keep = Math.max(0, Math.min(all.size(), scannedHeight - filterHeaders.base() + 1));
        fh.addAll(all.subList(0, keep));
        byte[] fhBytes = new byte[fh.size() * 32];
        for (int i = 0; i < fh.size(); i++) {
            System.arraycopy(fh.get(i).getBytes(), 0, fhBytes, i * 32, 32);
        }
        List<WalletFileContent.Tx> txs = txRecords();
        return new WalletFileContent(
                WalletFileContent.CURRENT_VERSION,
                ((BitcoinNetwork) network).toString(),
                keys.gapLimit(),
                accounts,
                secret,
                birthdayHeight,
                birthdayTime,
                Base64.getEncoder().encodeToString(headers.serialize()),
                filterHeaders.base(),
                Base64.getEncoder().encodeToString(fhBytes),
                checkpoints.stream().map(Sha256Hash::toString).toList(),
                scannedHeight,
                txs);
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
        List<String> mnemonic = List.of(new String(words, StandardCharsets.UTF_8).split(" "));
        Arrays.fill(words, (byte) 0);
        WalletKeys full = WalletKeys.fromMnemonic(
                mnemonic,
                "",
                network,
                keys.gapLimit(),
                keys.accounts().stream().map(HdAccount::kind).toList());
        for (HdAccount a : keys.accounts()) {
            full.restoreChainState(a.kind(), false, keys.chainState(a.kind(), false));
            full.restoreChainState(a.kind(), true, keys.chainState(a.kind(), true));
        }
        return full;
    }

    private static WalletKeys publicOnly(WalletKeys keys) {
        List<HdAccount> pub = new ArrayList<>();
        for (HdAccount a : keys.accounts()) {
            pub.add(HdAccount.watchOnly(a.extendedPublicKey(), a.kind(), keys.network()));
        }
        return WalletKeys.of(keys.network(), keys.gapLimit(), pub);
    }

    public Path file() {
        return file;
    }

    public Network network() {
        return network;
    }

    public WalletKeys keys() {
        return keys;
    }

    public Ledger ledger() {
        return ledger;
    }

    public boolean watchOnly() {
        return secret == null;
    }

    public VerifiedHeaderChain headers() {
        return headers;
    }

    public FilterHeaderChain filterHeaders() {
        return filterHeaders;
    }

    public void resetFilterHeaders(FilterHeaderChain chain) {
        this.filterHeaders = chain;
    }

    public List<Sha256Hash> checkpoints() {
        return checkpoints;
    }

    public void setCheckpoints(List<Sha256Hash> checkpoints) {
        this.checkpoints = List.copyOf(checkpoints);
    }

    /** The birthday height; when the birthday was given as a time, resolved against the header chain once it is long enough. */
    public int birthdayHeight() {
        if (birthdayTime != null) {
            return Math.max(birthdayHeight, headers.heightAtTime(birthdayTime));
        }
        return birthdayHeight;
    }

    public int scannedHeight() {
        return scannedHeight;
    }

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
        if (height - 1 < filterHeaders.base() - 1) {
            filterHeaders = new FilterHeaderChain(0, FilterHeaders.GENESIS_PREV);
        } else {
            filterHeaders.truncate(height - 1);
        }
        scannedHeight = Math.min(scannedHeight, height - 1);
    }
}
