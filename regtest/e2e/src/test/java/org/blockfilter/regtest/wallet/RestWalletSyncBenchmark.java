package org.blockfilter.regtest.wallet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdBinary;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.internal.TempDirs;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;

/**
 * Measures (does not test) a fresh wallet's sync of a 10,000-block regtest chain from our REST
 * server on 127.0.0.1, indexed from btcd. Prints the numbers; run by hand (see docs/benchmarks.md).
 * Usage: {@code RestWalletSyncBenchmark [blocks]}.
 */
public final class RestWalletSyncBenchmark {
    private RestWalletSyncBenchmark() {}

    public static void main(String[] args) throws Exception {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Path dir = Files.createTempDirectory("wallet-sync-timing");
        try (WalletFixture<BtcdNode> chain =
                WalletFixture.onBtcd(ScenarioSpec.small(99L, 20), BtcdBinary.locateOrInstall(System.getenv()))) {
            RegtestNode node = chain.node();
            LightWallet w = WalletFixture.newWallet(
                    dir.resolve("w.json"), "timing".toCharArray(), EnumSet.allOf(AddressKind.class));
            int payments = 0;
            while (node.tipHeight() < blocks) {
                if (payments < 5 && node.tipHeight() % 1000 == 500) {
                    chain.pay(WalletFixture.receiving(w, AddressKind.P2WPKH, payments));
                    payments++;
                    node.mine(1);
                } else {
                    int tip = node.tipHeight();
                    int nextPayment = tip < 500 ? 500 : ((tip - 500) / 1000 + 1) * 1000 + 500;
                    node.mine(Math.max(1, Math.min(Math.min(nextPayment, blocks) - tip, 500)));
                }
            }
            System.out.printf("chain: %d blocks, %d payments to the wallet%n", node.tipHeight(), payments);
            long t0 = System.nanoTime();
            try (ServerOnNode server = new ServerOnNode(node)) {
                System.out.printf("server indexed in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
                try (ChainSource rest = RestSource.create(server.baseUri(), Duration.ofSeconds(30))) {
                    long t1 = System.nanoTime();
                    SyncReport r = new SyncEngine(w, List.of(rest), null).sync();
                    long ms = (System.nanoTime() - t1) / 1_000_000;
                    System.out.printf(
                            "wallet sync over REST: %d blocks, %d filters, %d matched blocks, %d ms, balance %s BTC%n",
                            r.tipHeight() + 1,
                            r.filtersScanned(),
                            r.matchedBlocks(),
                            ms,
                            w.ledger().balance(true).toPlainString());
                }
            }
        } finally {
            TempDirs.deleteQuietly(dir);
        }
    }
}
