package org.blockfilter.wallet;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.labels.Labels;
import org.blockfilter.wallet.store.WalletFileContent;

/**
 * The three-way merge of a save: what another process saved since this one loaded the file
 * ({@code theirs}) is merged into this process's wallet against the content both started from
 * ({@code base}). Transactions the other process added, confirmed or dropped are taken unless this
 * process changed the same one (then a confirmed version beats a pending one); address positions
 * take the higher of the two; the other process's chains and scan position are taken when this
 * process did not move its own, with the decoys it kept (they are reopened from the shared header files, which that
 * process wrote before its document). Stateless.
 */
final class WalletMerge {
    private WalletMerge() {}

    static void absorb(LightWallet w, WalletFileContent base, WalletFileContent theirs) {
        WalletKeys keys = w.keys();
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
        Map<String, WalletFileContent.Tx> mineTx = byTxid(WalletFormat.txRecords(w));
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
                    w.ledger().remove(Sha256Hash.wrap(id));
                } else {
                    w.ledger().put(WalletFormat.walletTx(t));
                }
            } else if (t != null && t.height() >= 0 && (m == null || m.height() < 0)) {
                w.ledger().put(WalletFormat.walletTx(t));
            }
        }
        absorbLabels(w, base.labels(), theirs.labels());
        WalletFileContent mine = WalletFormat.content(w);
        if (chainsOf(mine).equals(chainsOf(base)) && !chainsOf(theirs).equals(chainsOf(base))) {
            LightWallet reopened = WalletFormat.fromContent(w.file(), withLedgerOf(theirs, List.of()));
            w.headers = reopened.headers;
            w.filterHeaders = reopened.filterHeaders;
            w.scannedHeight = reopened.scannedHeight;
            w.decoys.clear();
            w.decoys.addAll(reopened.decoys);
            w.birthdayHeight = reopened.birthdayHeight;
            w.storage.openCheckpoints(
                    theirs.checkpointCount(),
                    theirs.lastCheckpoint() == null ? null : Sha256Hash.wrap(theirs.lastCheckpoint()));
        }
    }

    /** Labels the other process set or removed are taken unless this process changed the same one. */
    private static void absorbLabels(
            LightWallet w, List<WalletFileContent.Label> base, List<WalletFileContent.Label> theirs) {
        Map<List<String>, WalletFileContent.Label> b = byRef(base);
        Map<List<String>, WalletFileContent.Label> t = byRef(theirs);
        Map<List<String>, WalletFileContent.Label> m = byRef(WalletFormat.labelRecords(w));
        Set<List<String>> refs = new LinkedHashSet<>(b.keySet());
        refs.addAll(t.keySet());
        for (List<String> ref : refs) {
            if (!Objects.equals(t.get(ref), b.get(ref)) && Objects.equals(m.get(ref), b.get(ref))) {
                WalletFileContent.Label l = t.get(ref);
                w.labels()
                        .put(
                                l == null
                                        ? new Labels.Label(ref.get(0), ref.get(1), null, null)
                                        : new Labels.Label(l.type(), l.ref(), l.label(), l.spendable()));
            }
        }
    }

    private static Map<List<String>, WalletFileContent.Label> byRef(List<WalletFileContent.Label> labels) {
        Map<List<String>, WalletFileContent.Label> out = new LinkedHashMap<>();
        for (WalletFileContent.Label l : labels) {
            out.put(List.of(l.type(), l.ref()), l);
        }
        return out;
    }

    /** The parts of a document that belong to the chains and the scan. */
    private static List<Object> chainsOf(WalletFileContent c) {
        return List.of(
                c.chain(),
                c.filterHeaderStart(),
                Objects.toString(c.filterAnchor()),
                c.filterTipHeight(),
                c.checkpointCount(),
                Objects.toString(c.lastCheckpoint()),
                c.scannedHeight());
    }

    private static WalletFileContent withLedgerOf(WalletFileContent c, List<WalletFileContent.Tx> txs) {
        return new WalletFileContent(
                c.version(),
                c.network(),
                c.gapLimit(),
                c.accounts(),
                c.secret(),
                c.birthdayHeight(),
                c.birthdayTime(),
                c.chain(),
                c.filterHeaderStart(),
                c.filterAnchor(),
                c.filterTipHeight(),
                c.filterTipHeader(),
                c.checkpointCount(),
                c.lastCheckpoint(),
                c.scannedHeight(),
                txs,
                c.labels(),
                c.decoys());
    }

    private static Map<String, WalletFileContent.Tx> byTxid(List<WalletFileContent.Tx> txs) {
        Map<String, WalletFileContent.Tx> out = new LinkedHashMap<>();
        for (WalletFileContent.Tx t : txs) {
            out.put(t.txid(), t);
        }
        return out;
    }
}
