package org.blockfilter.wallet;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.KeyFormatException;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.labels.Labels;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.store.LegacyWalletFileContent;
import org.blockfilter.wallet.store.WalletFileContent;
import org.blockfilter.wallet.sync.DecoyGroup;
import org.blockfilter.wallet.sync.FilterHeaderChain;
import org.blockfilter.wallet.sync.VerifiedHeaderChain;

/**
 * The wallet's file format: a {@link LightWallet} to its document ({@link WalletFileContent}) and
 * back, every field checked on the way in with an error that names it, and the migration of a
 * one-document file ({@link LegacyWalletFileContent}, every header inline) to the document plus
 * flat header files. Stateless.
 */
final class WalletFormat {
    private static final int MAX_GAP_LIMIT = 10_000;
    private static final int MAX_INDEX = 1 << 30;
    private static final HexFormat HEX = HexFormat.of();
    private static final String DECOY = "decoy";
    private static final String CLUSTER = "cluster";

    private WalletFormat() {}

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException(what);
        }
    }

    /** The document for {@code w} as it is now. */
    static WalletFileContent content(LightWallet w) {
        VerifiedHeaderChain chain = w.headers();
        FilterHeaderChain fh = w.filterHeaders();
        HeaderCheckpoint base = chain.checkpoint();
        // Filter headers are committed only as far as their filters were checked against them
        // (the scan); the rest was only a source's word and is fetched again next time.
        int fhTip = Math.max(fh.base() - 1, Math.min(fh.tipHeight(), w.scannedHeight()));
        Sha256Hash last = w.storage.lastCheckpoint();
        return new WalletFileContent(
                WalletFileContent.CURRENT_VERSION,
                w.chain().cliName(),
                w.keys().gapLimit(),
                accounts(w.keys()),
                w.secret,
                w.birthdayHeight,
                w.birthdayTime,
                new WalletFileContent.Chain(
                        base.height(),
                        HEX.formatHex(base.header()),
                        base.chainWork().toString(16),
                        chain.tipHeight(),
                        chain.tipHash().toString(),
                        chain.chainWork().toString(16)),
                fh.base(),
                fh.anchored() ? fh.anchor().toString() : null,
                fhTip,
                fhTip >= fh.base() ? fh.header(fhTip).toString() : null,
                w.storage.checkpointCount(),
                last == null ? null : last.toString(),
                w.scannedHeight(),
                txRecords(w),
                labelRecords(w),
                decoyRecords(w.decoys()));
    }

    private static List<WalletFileContent.Decoy> decoyRecords(List<DecoyGroup> groups) {
        return groups.stream()
                .map(g -> new WalletFileContent.Decoy(
                        g.cluster() ? CLUSTER : DECOY,
                        g.adoptedAt(),
                        g.seedHeight(),
                        g.scripts().stream().map(s -> HEX.formatHex(s.bytes())).toList()))
                .toList();
    }

    /** The decoy groups a document keeps, each checked; those adopted above {@code scanned} are dropped. */
    private static List<DecoyGroup> decoys(List<WalletFileContent.Decoy> records, int scanned) {
        List<DecoyGroup> out = new ArrayList<>();
        for (WalletFileContent.Decoy d : records) {
            check(
                    d != null && (DECOY.equals(d.kind()) || CLUSTER.equals(d.kind())),
                    "a decoy group has kind " + (d == null ? null : d.kind()) + ", not " + DECOY + " or " + CLUSTER);
            check(d.scripts() != null, "the decoy group adopted at " + d.adoptedAt() + " has no scripts");
            List<OutputScript> scripts = new ArrayList<>();
            for (String hex : d.scripts()) {
                check(
                        hex != null && hex.matches("([0-9a-f]{2}){1,10000}"),
                        "the decoy group adopted at " + d.adoptedAt() + " has a malformed script " + hex);
                scripts.add(OutputScript.ofHex(hex));
            }
            DecoyGroup g;
            try {
                g = new DecoyGroup(CLUSTER.equals(d.kind()), d.adoptedAt(), d.seedHeight(), scripts);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "the decoy group adopted at " + d.adoptedAt() + ": " + e.getMessage(), e);
            }
            if (g.adoptedAt() <= scanned) {
                out.add(g);
            }
        }
        return out;
    }

    static List<WalletFileContent.Label> labelRecords(LightWallet w) {
        return w.labels().all().stream()
                .map(l -> new WalletFileContent.Label(l.type(), l.ref(), l.label(), l.spendable()))
                .toList();
    }

    /**
     * {@code next} cut down to what the flat files hold while a save rewrites them: the header
     * chain to {@code headerTip}, the filter headers to {@code filterTip}, {@code checkpoints}
     * checkpoints, the scan and the confirmed transactions no higher than those.
     */
    static WalletFileContent upTo(
            WalletFileContent next,
            VerifiedHeaderChain chain,
            FilterHeaderChain fh,
            int headerTip,
            int filterTip,
            int checkpoints,
            Sha256Hash lastCheckpoint) {
        WalletFileContent.Chain c = next.chain();
        int fhTip = Math.min(filterTip, headerTip);
        fhTip = Math.max(fhTip, next.filterHeaderStart() - 1);
        int scanned = Math.min(next.scannedHeight(), Math.max(fhTip, next.birthdayHeight() - 1));
        scanned = Math.min(scanned, headerTip);
        int scan = scanned;
        List<WalletFileContent.Tx> txs = next.transactions().stream()
                .filter(t -> t.height() <= headerTip)
                .toList();
        return new WalletFileContent(
                next.version(),
                next.network(),
                next.gapLimit(),
                next.accounts(),
                next.secret(),
                next.birthdayHeight(),
                next.birthdayTime(),
                new WalletFileContent.Chain(
                        c.baseHeight(),
                        c.baseHeader(),
                        c.baseWork(),
                        headerTip,
                        chain.hash(headerTip).toString(),
                        WalletStorage.workAt(chain, headerTip).toString(16)),
                next.filterHeaderStart(),
                next.filterAnchor(),
                fhTip,
                fhTip >= next.filterHeaderStart() ? fh.header(fhTip).toString() : null,
                checkpoints,
                lastCheckpoint == null ? null : lastCheckpoint.toString(),
                scanned,
                txs,
                next.labels(),
                next.decoys().stream().filter(d -> d.adoptedAt() <= scan).toList());
    }

    private static List<WalletFileContent.Account> accounts(WalletKeys keys) {
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
                    ch.issued(),
                    a.descriptor().toString(),
                    a.changeDescriptor().map(Object::toString).orElse(null)));
        }
        return accounts;
    }

    static List<WalletFileContent.Tx> txRecords(LightWallet w) {
        return w.ledger().transactions().stream()
                .map(t -> new WalletFileContent.Tx(
                        t.txid().toString(),
                        t.height(),
                        t.blockHash() == null ? null : t.blockHash().toString(),
                        HEX.formatHex(t.raw())))
                .toList();
    }

    /** The network a file names: ours (mainnet, testnet3, ...) or, in files written before testnet4, bitcoinj's id ("testnet"). */
    private static Chain network(String name) {
        try {
            return Chain.fromName(name);
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("unknown network in wallet file: " + e.getMessage(), null);
        }
    }

    private static WalletKeys keys(Chain chain, int gapLimit, List<WalletFileContent.Account> list) {
        Network network = chain.addressNetwork();
        check(gapLimit >= 1 && gapLimit <= MAX_GAP_LIMIT, "gapLimit " + gapLimit + " is outside 1.." + MAX_GAP_LIMIT);
        check(!list.isEmpty(), "no accounts");
        List<HdAccount> accounts = new ArrayList<>();
        for (WalletFileContent.Account a : list) {
            check(
                    a.kind() != null
                            && Arrays.stream(AddressKind.values())
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
            accounts.add(account(a, network));
        }
        WalletKeys keys = WalletKeys.of(network, gapLimit, accounts);
        for (WalletFileContent.Account a : list) {
            AddressKind kind = AddressKind.valueOf(a.kind());
            keys.restoreChainState(kind, false, new WalletKeys.ChainState(a.receiveUsed(), a.receiveIssued()));
            keys.restoreChainState(kind, true, new WalletKeys.ChainState(a.changeUsed(), a.changeIssued()));
        }
        return keys;
    }

    /** A version 2 account is its kind and xpub; a version 3 account its descriptors, which must be of its kind. */
    private static HdAccount account(WalletFileContent.Account a, Network network) {
        AddressKind kind = AddressKind.valueOf(a.kind());
        if (a.descriptor() == null) {
            check(
                    a.changeDescriptor() == null,
                    "the " + a.kind() + " account has a change descriptor but no descriptor");
            return HdAccount.watchOnly(a.xpub(), kind, network);
        }
        HdAccount account;
        try {
            account = HdAccount.fromDescriptors(
                    Descriptor.parse(a.descriptor(), network),
                    a.changeDescriptor() == null ? null : Descriptor.parse(a.changeDescriptor(), network));
        } catch (KeyFormatException e) {
            throw new IllegalArgumentException("the " + a.kind() + " account's descriptor: " + e.getMessage(), e);
        }
        check(
                account.kind() == kind,
                "the " + a.kind() + " account's descriptor is a " + account.kind() + " descriptor");
        return account;
    }

    private static void addLabels(LightWallet w, List<WalletFileContent.Label> labels) {
        for (WalletFileContent.Label l : labels) {
            w.labels().put(new Labels.Label(l.type(), l.ref(), l.label(), l.spendable()));
        }
    }

    private static Sha256Hash hash(String hex, String field) {
        check(hex != null && hex.matches("[0-9a-f]{64}"), "malformed " + field + " " + hex);
        return Sha256Hash.wrap(hex);
    }

    /** The wallet the document describes, its chains opened on their flat files (read only as far as needed). */
    static LightWallet fromContent(Path file, WalletFileContent c) {
        check(
                c.network() != null && c.accounts() != null && c.chain() != null && c.transactions() != null,
                "a required field is missing");
        Chain network = network(c.network());
        WalletKeys keys = keys(network, c.gapLimit(), c.accounts());
        check(c.birthdayHeight() >= -1, "birthdayHeight " + c.birthdayHeight() + " is below -1");
        WalletFileContent.Chain ch = c.chain();
        check(ch.baseHeader() != null && ch.baseHeader().matches("([0-9a-f]{2}){80}"), "malformed chain baseHeader");
        HeaderCheckpoint base =
                new HeaderCheckpoint(ch.baseHeight(), HEX.parseHex(ch.baseHeader()), new BigInteger(ch.baseWork(), 16));
        check(
                ch.tipHeight() >= ch.baseHeight(),
                "chain tipHeight " + ch.tipHeight() + " is below its base " + ch.baseHeight());
        LightWallet w = new LightWallet(file, network, keys, c.secret(), c.birthdayHeight(), c.birthdayTime(), base);
        VerifiedHeaderChain chain = VerifiedHeaderChain.open(
                network,
                base,
                w.storage.headerFile(),
                ch.tipHeight(),
                hash(ch.tipHash(), "chain tipHash"),
                new BigInteger(ch.tipWork(), 16));
        int tip = chain.tipHeight();
        check(
                c.filterHeaderStart() >= base.height() && c.filterHeaderStart() <= tip + 1,
                "filterHeaderStart " + c.filterHeaderStart() + " is outside " + base.height() + ".." + (tip + 1));
        check(
                c.filterTipHeight() >= c.filterHeaderStart() - 1,
                "filterTipHeight " + c.filterTipHeight() + " is below filterHeaderStart - 1");
        Sha256Hash anchor = c.filterAnchor() == null ? null : hash(c.filterAnchor(), "filterAnchor");
        check(
                anchor != null || c.filterHeaderStart() == 0 || c.filterTipHeight() < c.filterHeaderStart(),
                "filter headers are stored without their anchor");
        if (c.filterHeaderStart() == 0) {
            anchor = FilterHeaders.GENESIS_PREV;
        }
        FilterHeaderChain fh = FilterHeaderChain.open(
                c.filterHeaderStart(),
                anchor,
                w.storage.filterHeaderFile(),
                c.filterTipHeight(),
                c.filterTipHeader() == null ? null : hash(c.filterTipHeader(), "filterTipHeader"));
        check(
                c.checkpointCount() >= 0 && c.checkpointCount() <= tip / Bip157.CHECKPOINT_INTERVAL,
                c.checkpointCount() + " checkpoints stored, but the block-header chain (tip " + tip + ") has room for "
                        + tip / Bip157.CHECKPOINT_INTERVAL);
        w.storage.openCheckpoints(
                c.checkpointCount(), c.lastCheckpoint() == null ? null : hash(c.lastCheckpoint(), "lastCheckpoint"));
        w.headers = chain;
        // A header file that lost records (never a crash of ours: see WalletStorage) rolls the
        // wallet back to where it ends; the next sync downloads the rest again.
        if (fh.tipHeight() > tip) {
            fh.truncate(tip);
        }
        w.filterHeaders = fh;
        int scanned = c.scannedHeight();
        boolean lost = tip < ch.tipHeight() || fh.tipHeight() < c.filterTipHeight();
        if (lost && scanned > fh.tipHeight() && scanned >= c.birthdayHeight()) {
            scanned = Math.max(fh.tipHeight(), Math.min(scanned, c.birthdayHeight() - 1));
        }
        w.scannedHeight = lost ? Math.min(scanned, tip) : scanned;
        checkScan(w);
        addTransactions(w, c.transactions(), tip < ch.tipHeight() ? tip : Integer.MAX_VALUE);
        addLabels(w, c.labels());
        w.decoys.addAll(decoys(c.decoys(), w.scannedHeight));
        return w;
    }

    private static void checkScan(LightWallet w) {
        int highest = Math.max(w.birthdayHeight - 1, w.filterHeaders.tipHeight());
        check(
                w.scannedHeight >= -1 && w.scannedHeight <= highest,
                "scannedHeight " + w.scannedHeight + " is outside -1.." + highest
                        + " (the stored filter headers end at " + w.filterHeaders.tipHeight() + ")");
    }

    private static void addTransactions(LightWallet w, List<WalletFileContent.Tx> txs, int droppedAbove) {
        for (WalletFileContent.Tx t : txs) {
            WalletTx tx = walletTx(t);
            if (tx.pending()) {
                check(tx.blockHash() == null, "pending transaction " + tx.txid() + " names a block");
            } else if (tx.height() > droppedAbove) {
                continue; // its block left with the lost header records; the next sync finds it again
            } else {
                VerifiedHeaderChain h = w.headers;
                check(
                        tx.height() >= h.baseHeight()
                                && tx.height() <= h.tipHeight()
                                && tx.blockHash() != null
                                && tx.blockHash().equals(h.hash(tx.height())),
                        "transaction " + tx.txid() + " claims block " + tx.blockHash() + " at height " + tx.height()
                                + ", which is not in the stored block-header chain (" + h.baseHeight() + ".."
                                + h.tipHeight() + ")");
            }
            w.ledger().put(tx);
        }
    }

    static WalletTx walletTx(WalletFileContent.Tx t) {
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
                HEX.parseHex(t.raw()));
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
     * The wallet a one-document file describes, checked as that format was (headers linked with
     * proof of work from genesis, filter headers agreeing with the stored checkpoints), with its
     * chains attached to fresh flat files and written out; the caller writes the document.
     */
    static WalletFileContent migrate(Path file, LegacyWalletFileContent c) {
        check(
                c.network() != null
                        && c.accounts() != null
                        && c.headers() != null
                        && c.filterHeaders() != null
                        && c.checkpoints() != null
                        && c.transactions() != null,
                "a required field is missing");
        check(c.birthdayHeight() >= 0, "birthdayHeight " + c.birthdayHeight() + " is negative");
        Chain network = network(c.network());
        WalletKeys keys = keys(network, c.gapLimit(), c.accounts());
        LightWallet w = new LightWallet(
                file, network, keys, c.secret(), c.birthdayHeight(), c.birthdayTime(), network.genesisCheckpoint());
        w.headers = VerifiedHeaderChain.restore(network, Base64.getDecoder().decode(c.headers()));
        byte[] fh = Base64.getDecoder().decode(c.filterHeaders());
        check(
                fh.length % 32 == 0 && (c.filterHeaderStart() == 0 || fh.length >= 32),
                "filterHeaders has " + fh.length + " bytes, not a whole number of 32-byte headers (with the anchor)");
        Sha256Hash anchor = c.filterHeaderStart() == 0
                ? FilterHeaders.GENESIS_PREV
                : Sha256Hash.wrap(Arrays.copyOfRange(fh, 0, 32));
        FilterHeaderChain chain = new FilterHeaderChain(c.filterHeaderStart(), anchor);
        List<Sha256Hash> list = new ArrayList<>();
        for (int i = c.filterHeaderStart() == 0 ? 0 : 32; i + 32 <= fh.length; i += 32) {
            list.add(Sha256Hash.wrap(Arrays.copyOfRange(fh, i, i + 32)));
        }
        chain.append(list);
        w.filterHeaders = chain;
        for (String cp : c.checkpoints()) {
            check(cp != null && cp.matches("[0-9a-f]{64}"), "malformed checkpoint " + cp);
        }
        List<Sha256Hash> cps = c.checkpoints().stream().map(Sha256Hash::wrap).toList();
        int tip = w.headers.tipHeight();
        check(
                chain.base() >= 0 && chain.base() <= tip + 1,
                "filterHeaderStart " + chain.base() + " is outside 0.." + (tip + 1));
        check(
                chain.tipHeight() <= tip,
                "filter headers reach height " + chain.tipHeight() + ", past the block-header tip " + tip);
        check(
                cps.size() <= tip / Bip157.CHECKPOINT_INTERVAL,
                cps.size() + " checkpoints stored, but the block-header chain (tip " + tip + ") has room for "
                        + tip / Bip157.CHECKPOINT_INTERVAL);
        for (int i = 0; i < cps.size(); i++) {
            int h = (i + 1) * Bip157.CHECKPOINT_INTERVAL;
            if (h >= chain.base() - 1 && h <= chain.tipHeight()) {
                check(
                        chain.header(h).equals(cps.get(i)),
                        "the stored filter header at " + h + " differs from the stored checkpoint");
            }
        }
        w.scannedHeight = c.scannedHeight();
        checkScan(w);
        if (chain.tipHeight() > w.scannedHeight) {
            chain.truncate(Math.max(w.scannedHeight, chain.base() - 1));
        }
        addTransactions(w, c.transactions(), Integer.MAX_VALUE);
        w.storage.fresh();
        w.storage.setCheckpoints(cps);
        w.headers.attach(w.storage.headerFile());
        w.filterHeaders.attach(w.storage.filterHeaderFile());
        WalletFileContent next = content(w);
        w.storage.writeRecords(file, w, null, next, null);
        return next;
    }
}
