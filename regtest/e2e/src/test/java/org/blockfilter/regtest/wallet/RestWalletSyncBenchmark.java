package org.blockfilter.regtest.wallet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdBinary;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.internal.TempDirs;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;

/**
 * Measures (does not test) a fresh wallet's sync of a 10,000-block regtest chain from our REST
 * server on 127.0.0.1, indexed from btcd, under the block-fetch policies {@code none} and the
 * default ({@link FetchPolicy#DEFAULT_SPEC}) in the same run: each round syncs one fresh wallet per
 * policy from the same server, the order alternating between rounds so that neither always runs on
 * the warmer caches, after one uncounted warm-up round. Prints every sync, the median per policy and their ratio; run by hand (see
 * docs/benchmarks.md). Usage: {@code RestWalletSyncBenchmark [blocks [rounds]]} (10,000 and 3).
 */
public final class RestWalletSyncBenchmark {
    private static final Map<String, FetchPolicy> POLICIES =
            Map.of("none", FetchPolicy.NONE, "default", FetchPolicy.DEFAULT);

    private RestWalletSyncBenchmark() {}

    public static void main(String[] args) throws Exception {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("wallet-sync-timing");
        try (WalletFixture<BtcdNode> chain =
                WalletFixture.onBtcd(ScenarioSpec.small(99L, 20), BtcdBinary.locateOrInstall(System.getenv()))) {
            RegtestNode node = chain.node();
            LightWallet payee = newWallet(dir, "payee");
            int payments = 0;
            while (node.tipHeight() < blocks) {
                if (payments < 5 && node.tipHeight() % 1000 == 500) {
                    chain.pay(WalletFixture.receiving(payee, AddressKind.P2WPKH, payments));
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
                Map<String, List<Long>> times = new TreeMap<>();
                for (int round = -1; round < rounds; round++) { // round -1 warms the JIT and the caches, not counted
                    List<String> order = round % 2 == 0 ? List.of("none", "default") : List.of("default", "none");
                    for (String policy : order) {
                        long ms = syncOnce(server, newWallet(dir, policy + round), policy, round < 0);
                        if (round >= 0) {
                            times.computeIfAbsent(policy, k -> new ArrayList<>())
                                    .add(ms);
                        }
                    }
                }
                long none = median(times.get("none"));
                long dflt = median(times.get("default"));
                System.out.printf(
                        "median of %d: none %d ms, default (%s) %d ms, default/none %.2f%n",
                        rounds, none, FetchPolicy.DEFAULT_SPEC, dflt, (double) dflt / none);
            }
        } finally {
            TempDirs.deleteQuietly(dir);
        }
    }

    private static LightWallet newWallet(Path dir, String name) {
        return WalletFixture.newWallet(dir.resolve(name + ".json"), "timing".toCharArray(), AddressKind.seedKinds());
    }

    /** One sync of a fresh wallet from genesis under {@code policy}; prints it and returns its milliseconds. */
    private static long syncOnce(ServerOnNode server, LightWallet w, String policy, boolean warmUp) {
        try (ChainSource rest = RestSource.create(server.baseUri(), Duration.ofSeconds(30))) {
            long t1 = System.nanoTime();
            SyncReport r = new SyncEngine(
                            w, List.of(rest), SyncEngine.Options.defaults().withFetchPolicy(POLICIES.get(policy)))
                    .sync();
            long ms = (System.nanoTime() - t1) / 1_000_000;
            System.out.printf(
                    "%swallet sync over REST, fetch policy %s: %d blocks, %d filters, %d matched blocks,"
                            + " %d decoy blocks, %d ms, balance %s BTC%n",
                    warmUp ? "(warm-up, not counted) " : "",
                    policy,
                    r.tipHeight() + 1,
                    r.filtersScanned(),
                    r.matchedBlocks(),
                    r.decoyBlocks(),
                    ms,
                    w.ledger().balance(true).toPlainString());
            return ms;
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
