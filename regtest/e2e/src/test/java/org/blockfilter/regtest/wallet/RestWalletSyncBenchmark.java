package org.blockfilter.regtest.wallet;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.blockfilter.regtest.btcd.BtcdBinary;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.index.StoreFilterIndexReader;
import org.blockfilter.server.node.RpcNodeGateway;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;
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
        ScenarioSpec spec = ScenarioSpec.small(99L, 20);
        try (BtcdNode node = BtcdNode.start(
                BtcdOptions.of(spec.miningAddress()).withBinary(BtcdBinary.locateOrInstall(System.getenv())))) {
            GroundTruth truth = ScenarioRunner.run(node, spec);
            LightWallet w = LightWallet.create(
                    dir.resolve("w.json"),
                    BitcoinNetwork.REGTEST,
                    List.of(
                            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
                                    .split(" ")),
                    "timing".toCharArray(),
                    EnumSet.allOf(AddressKind.class),
                    20,
                    LightWallet.Birthday.ofHeight(0),
                    1 << 10);
            Iterator<OwnedOutput> coins = truth.outputs().stream()
                    .filter(o -> o.unspent()
                            && !o.coinbase()
                            && o.script().kind() == OutputKind.P2WPKH
                            && o.value().isGreaterThan(Coin.valueOf(1_000_000)))
                    .iterator();
            int payments = 0;
            while (node.tipHeight() < blocks) {
                if (payments < 5 && coins.hasNext() && node.tipHeight() % 1000 == 500) {
                    OwnedOutput coin = coins.next();
                    Transaction tx = new Transaction();
                    tx.addOutput(
                            coin.value().subtract(Coin.valueOf(20_000)),
                            w.keys()
                                    .account(AddressKind.P2WPKH)
                                    .orElseThrow()
                                    .derive(false, payments)
                                    .address());
                    tx.addSignedInput(
                            coin.outpoint(),
                            coin.script().scriptPubKey(),
                            coin.value(),
                            coin.script().keys().get(0));
                    node.submitTransaction(tx.serialize());
                    payments++;
                    node.mine(1);
                } else {
                    int tip = node.tipHeight();
                    int nextPayment = tip < 500 ? 500 : ((tip - 500) / 1000 + 1) * 1000 + 500;
                    node.mine(Math.max(1, Math.min(Math.min(nextPayment, blocks) - tip, 500)));
                }
            }
            System.out.printf("chain: %d blocks, %d payments to the wallet%n", node.tipHeight(), payments);
            BitcoinRpc rpc = new BitcoinRpc(
                    JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(60)));
            try (IndexStore store = IndexStore.open(dir.resolve("index"));
                    FilterIndexer indexer = new FilterIndexer(store, new RpcBlockSource(rpc), Duration.ofSeconds(1));
                    RestServer server = RestServer.start(
                            RestConfig.defaults(), new StoreFilterIndexReader(store), new RpcNodeGateway(rpc))) {
                long t0 = System.nanoTime();
                indexer.syncOnce();
                System.out.printf("server indexed in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
                try (ChainSource rest =
                        RestSource.create(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(30))) {
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
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
