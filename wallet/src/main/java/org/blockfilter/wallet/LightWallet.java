package org.blockfilter.wallet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.KeyFormatException;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.Ledger;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.WalletFile;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * A light wallet and its file: keys (public part in the clear, mnemonic sealed), the verified
 * block-header and filter-header chains, the sync position and the ledger. {@link #save()}
 * writes everything atomically.
 *
 * <p>Mutable; not thread-safe: one sync or spend at a time. No method returns null except where
 * documented.
 */
public final class LightWallet {
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

    /** A new wallet from a mnemonic (new or restored), sealed with {@code passphrase}; written to {@code file}. */
    public static LightWallet create(
            Path file,
            Network network,
            List<String> mnemonic,
            char[] passphrase,
            Collection<AddressKind> kinds,
            int gapLimit,
            Birthday birthday,
            int scryptN) {
        if (passphrase.length == 0) {
            throw new IllegalArgumentException("a passphrase is required to seal the wallet's keys");
        }
        WalletKeys keys = WalletKeys.fromMnemonic(mnemonic, "", network, gapLimit, kinds);
        WalletKeys pub = publicOnly(keys);
        SealedSecret sealed =
                SealedSecret.seal(String.join(" ", mnemonic).getBytes(StandardCharsets.UTF_8), passphrase, scryptN);
        LightWallet w = new LightWallet(file, network, pub, sealed, birthday.height(), birthday.epochSeconds());
        WalletFile.create(file, w.content());
        return w;
    }

    /** A watch-only wallet for one account's extended public key. */
    public static LightWallet watchOnly(
            Path file, Network network, String xpub, AddressKind kind, int gapLimit, Birthday birthday) {
        WalletKeys keys = WalletKeys.of(network, gapLimit, List.of(HdAccount.watchOnly(xpub, kind, network)));
        LightWallet w = new LightWallet(file, network, keys, null, birthday.height(), birthday.epochSeconds());
        WalletFile.create(file, w.content());
        return w;
    }

    public static LightWallet load(Path file) {
        WalletFileContent c = WalletFile.load(file);
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
        w.headers = VerifiedHeaderChain.restore(network, Base64.getDecoder().decode(c.headers()));
        byte[] fh = Base64.getDecoder().decode(c.filterHeaders());
        Sha256Hash anchor = c.filterHeaderStart() == 0
                ? FilterHeaders.GENESIS_PREV
                : Sha256Hash.wrap(Arrays.copyOfRange(fh, 0, 32));
        int first = c.filterHeaderStart() == 0 ? 0 : 32;
        w.filterHeaders = new FilterHeaderChain(c.filterHeaderStart(), anchor);
        List<Sha256Hash> list = new ArrayList<>();
        for (int i = first; i + 32 <= fh.length; i += 32) {
            list.add(Sha256Hash.wrap(Arrays.copyOfRange(fh, i, i + 32)));
        }
        w.filterHeaders.append(list);
        w.checkpoints = c.checkpoints().stream().map(Sha256Hash::wrap).toList();
        w.scannedHeight = c.scannedHeight();
        for (WalletFileContent.Tx t : c.transactions()) {
            w.ledger.put(new WalletTx(
                    Sha256Hash.wrap(t.txid()),
                    t.height(),
                    t.blockHash() == null ? null : Sha256Hash.wrap(t.blockHash()),
                    HexFormat.of().parseHex(t.raw())));
        }
        return w;
    }

    /** Writes the wallet file atomically. */
    public void save() {
        WalletFile.save(file, content());
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
        fh.addAll(filterHeaders.headers());
        byte[] fhBytes = new byte[fh.size() * 32];
        for (int i = 0; i < fh.size(); i++) {
            System.arraycopy(fh.get(i).getBytes(), 0, fhBytes, i * 32, 32);
        }
        List<WalletFileContent.Tx> txs = ledger.transactions().stream()
                .map(t -> new WalletFileContent.Tx(
                        t.txid().toString(),
                        t.height(),
                        t.blockHash() == null ? null : t.blockHash().toString(),
                        HexFormat.of().formatHex(t.raw())))
                .toList();
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
        byte[] words = secret.open(passphrase);
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
}
