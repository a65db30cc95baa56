package org.blockfilter.regtest.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.embedded.SettableClock;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.scenario.ScenarioTx;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.ChainTip;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoredBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A chain far past regtest's halvings (every 150 blocks; the subsidy is zero from height 4,950):
 * the scenario keeps paying from the wallets' coins with fee-only coinbases, and the server
 * indexes all of it. Mostly empty blocks keep it inside the CI budget.
 */
class LongChainTest {
    /** Height from which regtest coinbases carry fees only: 33 halvings of 50 BTC leave nothing. */
    private static final int NO_SUBSIDY_FROM = 33 * 150;

    private Path dir;

    @BeforeEach
    void createDir() throws IOException {
        dir = Files.createTempDirectory("blockfilter-long-chain-");
    }

    @AfterEach
    void deleteDir() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void tenThousandBlocksPastEveryHalvingAreBuiltWithFeeOnlyCoinbasesAndIndexed() {
        ScenarioSpec spec =
                new ScenarioSpec(20_261_201L, 10_000, 3, 1, 1, 0.6, 0.3, List.of(new ScenarioSpec.Reorg(9_995, 3)));
        // A clock that stands still: the miner then stamps each block one second past the
        // median time past, as Core's does, and the chain is the same on every run.
        SettableClock clock = SettableClock.at(Instant.parse("2025-01-01T00:00:00Z"));
        long started = System.nanoTime();
        try (EmbeddedNode node = EmbeddedNode.start(
                EmbeddedNode.Config.defaults().withClock(clock).withMiningAddress(spec.miningAddress()))) {
            GroundTruth truth = ScenarioRunner.run(node, spec, line -> {});
            long built = System.nanoTime();
            assertTrue(truth.tipHeight() >= spec.blocks(), "tip " + truth.tipHeight());
            assertEquals(node.tipHash(), truth.tipHash());
            List<ScenarioTx> late = truth.transactions().stream()
                    .filter(t -> t.height() > NO_SUBSIDY_FROM)
                    .toList();
            assertTrue(
                    late.stream().anyMatch(t -> t.height() > 9_000 && !t.fanOut()),
                    "wallets still pay each other near the tip");
            for (int h : List.of(NO_SUBSIDY_FROM + 1, truth.tipHeight())) {
                Transaction coinbase = node.block(node.blockHash(h).orElseThrow())
                        .orElseThrow()
                        .getTransactions()
                        .get(0);
                long paid = coinbase.getOutputs().stream()
                        .mapToLong(o -> o.getValue().value)
                        .sum();
                assertTrue(paid < 1_000_000, "coinbase at " + h + " pays fees only: " + paid);
            }

            try (IndexStore store = IndexStore.open(dir.resolve("index"));
                    FilterIndexer indexer = new FilterIndexer(
                            store,
                            new RpcBlockSource(new BitcoinRpc(JsonRpcClient.create(
                                    node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(60)))),
                            Duration.ofSeconds(1))) {
                indexer.syncOnce();
                long indexed = System.nanoTime();
                ChainTip tip = store.tip().orElseThrow();
                assertEquals(truth.tipHeight(), tip.height());
                assertEquals(truth.tipHash(), tip.hash());
                for (ScenarioTx tx : late) {
                    StoredBlock block = store.block(tx.blockHash()).orElseThrow();
                    BasicFilter filter = BasicFilter.fromBytes(tx.blockHash(), block.filter());
                    for (OwnedOutput o : truth.outputs()) {
                        if (o.outpoint().getHash().equals(tx.txid())) {
                            assertTrue(
                                    filter.match(o.script().scriptPubKey().program()),
                                    "the filter of block " + tx.height() + " matches " + o.outpoint());
                        }
                    }
                }
                System.err.printf(
                        "[long-chain] %d blocks, %d scenario transactions (%d after the subsidy ended):"
                                + " built in %.1f s, indexed in %.1f s%n",
                        truth.tipHeight(),
                        truth.transactions().size(),
                        late.size(),
                        (built - started) / 1e9,
                        (indexed - built) / 1e9);
            }
        }
    }
}
