package org.blockfilter.examples;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.LightWallet.Birthday;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.ledger.Balance;
import org.blockfilter.wallet.ledger.HistoryEntry;
import org.blockfilter.wallet.source.rest.RestSource;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;

/**
 * Restores our wallet from a BIP 39 mnemonic and syncs it from a server: block headers, filter headers and filters,
 * each verified, matched locally, and the matching blocks fetched. Arguments: the server's URL, the wallet file to
 * write, the mnemonic's words (one argument).
 */
public final class SyncWalletFromJava {
    public static void main(String[] args) {
        URI server = URI.create(args[0]);
        Path file = Path.of(args[1]);
        List<String> mnemonic = List.of(args[2].split(" "));
        char[] passphrase = "seals the mnemonic in the file".toCharArray();

        LightWallet wallet = NewWallet.create(
                file,
                mnemonic,
                passphrase,
                List.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST).withBirthday(Birthday.ofHeight(0)));
        try (RestSource source = RestSource.create(server, Duration.ofSeconds(30))) {
            SyncReport report = new SyncEngine(wallet, List.of(source), SyncEngine.Options.defaults()).sync();
            System.out.println("synced to height " + report.tipHeight() + ", " + report.matchedBlocks()
                    + " blocks matched of " + report.filtersScanned());
        }

        Balance balance = wallet.ledger().balance(wallet.headers().tipHeight());
        System.out.println("spendable " + balance.spendable().toPlainString() + " BTC");
        for (HistoryEntry tx : wallet.ledger().history()) {
            System.out.println(
                    tx.txid() + " at height " + tx.height() + ": " + tx.net().toPlainString() + " BTC");
        }
    }
}
