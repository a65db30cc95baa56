package org.blockfilter.regtest.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdBinary;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;

/**
 * Indexing throughput over JSON-RPC: the standard 300-block scenario chain is built on the
 * embedded node and on btcd, then the server's {@link FilterIndexer} indexes it from genesis
 * into a fresh store, {@code runs} times per node; prints blocks/s and tx/s per run. A harness,
 * not a unit test (see docs/benchmarks.md for the command).
 */
public final class IndexingThroughputBenchmark {

    public static void main(String[] args) throws IOException {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        List<String> nodes = args.length > 1 ? List.of(args[1].split(",")) : List.of("embedded", "btcd");
        ScenarioSpec spec = ScenarioSpec.standard(20_261_130L);
        for (String name : nodes) {
            try (RegtestNode node = start(name, spec)) {
                GroundTruth truth = ScenarioRunner.run(node, spec, line -> {});
                int txs = truth.chainTransactionCount();
                for (int run = 1; run <= runs; run++) {
                    Path dir = Files.createTempDirectory("indexing-throughput");
                    try (IndexStore store = IndexStore.open(dir);
                            FilterIndexer indexer = new FilterIndexer(
                                    store,
                                    new RpcBlockSource(new BitcoinRpc(JsonRpcClient.create(
                                            node.rpcUri(),
                                            node.rpcUser(),
                                            node.rpcPassword(),
                                            Duration.ofSeconds(30)))),
                                    Duration.ofMillis(100))) {
                        long start = System.nanoTime();
                        int blocks = indexer.syncOnce().connected();
                        double seconds = (System.nanoTime() - start) / 1e9;
                        System.out.printf(
                                "%-8s run %d: %d blocks, %d txs in %.2f s = %.1f blocks/s, %.0f tx/s%n",
                                name, run, blocks, txs, seconds, blocks / seconds, txs / seconds);
                    } finally {
                        deleteTree(dir);
                    }
                }
            }
        }
    }

    private static RegtestNode start(String name, ScenarioSpec spec) {
        return switch (name) {
            case "embedded" ->
                EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()));
            case "btcd" ->
                BtcdNode.start(
                        BtcdOptions.of(spec.miningAddress()).withBinary(BtcdBinary.locateOrInstall(System.getenv())));
            default -> throw new IllegalArgumentException("unknown node " + name);
        };
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private IndexingThroughputBenchmark() {}
}
