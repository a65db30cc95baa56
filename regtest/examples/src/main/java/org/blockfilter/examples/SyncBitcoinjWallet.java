package org.blockfilter.examples;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.wallet.DeterministicSeed;
import org.bitcoinj.wallet.KeyChainGroupStructure;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.bitcoinj.FilterSync;
import org.blockfilter.wallet.source.rest.RestSource;

/**
 * Syncs an unmodified bitcoinj {@link Wallet} from a server over compact block filters: the filters are verified and
 * matched locally against the wallet's keys and look-ahead, and bitcoinj's own block chain is fed the headers and the
 * matching blocks. Arguments: the server's URL, the bitcoinj wallet file to write, the mnemonic's words (one
 * argument).
 */
public final class SyncBitcoinjWallet {
    public static void main(String[] args) throws Exception {
        URI server = URI.create(args[0]);
        Path file = Path.of(args[1]);
        DeterministicSeed seed = DeterministicSeed.ofMnemonic(List.of(args[2].split(" ")), "");
        Wallet wallet = Wallet.fromSeed(BitcoinNetwork.REGTEST, seed, ScriptType.P2WPKH, KeyChainGroupStructure.BIP43);

        // bitcoinj's own files: the wallet (saved after each batch) and its block store beside it.
        try (FilterSync sync = FilterSync.open(wallet, file, Path.of(file + ".spvchain"));
                RestSource source = RestSource.create(server, Duration.ofSeconds(30))) {
            FilterSync.Report report = sync.sync(List.of(source));
            System.out.println("synced to height " + report.height() + ", " + report.matchedBlocks()
                    + " blocks matched of " + report.filtersScanned());
        }
        System.out.println(
                "balance " + wallet.getBalance(Wallet.BalanceType.ESTIMATED).toPlainString() + " BTC");
        for (Transaction tx : wallet.getTransactions(false)) {
            System.out.println(tx.getTxId() + " at height " + tx.getConfidence().getAppearedAtChainHeight() + ": "
                    + tx.getValue(wallet).toPlainString() + " BTC");
        }
    }
}
