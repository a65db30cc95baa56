package org.blockfilter.regtest.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.IndexStore.Family;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's indexer against a real btcd: it indexes a scenario chain over JSON-RPC, and its
 * stored filter and filter header equal btcd's {@code getcfilter} / {@code getcfilterheader} at
 * every height; btcd then reorganises and, after the indexer follows, they are equal again at
 * every height, the dropped blocks' filters stay retrievable by hash (stale), and the chain state
 * equals a fresh index of the new chain. Finally the background follower picks up new blocks.
 * Skips without btcd unless CI=true or BLOCKFILTER_REQUIRE_BTCD=true.
 */
@ExtendWith(NodeLogOnFailure.class)
class ServerIndexAgainstBtcdTest {
    private static final EnumSet<Family> CHAIN_STATE = EnumSet.of(Family.META, Family.HEIGHT, Family.UTXO, Family.UNDO);
    private BtcdNode node;

    @TempDir
    Path tmp;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private RpcBlockSource source() {
        return new RpcBlockSource(new BitcoinRpc(
                JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(30))));
    }

    @Test
    void filtersAndHeadersEqualBtcdsAtEveryHeightThroughAReorg() throws InterruptedException {
        ScenarioSpec spec = ScenarioSpec.small(20_261_131L, 60);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        GroundTruth truth = ScenarioRunner.run(node, spec);

        try (IndexStore store = IndexStore.open(tmp.resolve("index"));
                FilterIndexer indexer = new FilterIndexer(store, source(), Duration.ofMillis(100))) {
            assertEquals(truth.tipHeight() + 1, indexer.syncOnce().connected());
            assertEqualsBtcdAtEveryHeight(store);

            Map<Sha256Hash, byte[]> dropped = new HashMap<>();
            for (int h = node.tipHeight() - 3; h <= node.tipHeight(); h++) {
                Sha256Hash hash = node.blockHash(h).orElseThrow();
                dropped.put(hash, node.cfilter(hash));
            }
            node.reorg(4, 6);

            FilterIndexer.SyncResult result = indexer.syncOnce();
            assertEquals(new FilterIndexer.SyncResult(6, 4), result);
            assertEqualsBtcdAtEveryHeight(store);
            StoreFilterIndexReader reader = new StoreFilterIndexReader(store);
            for (Map.Entry<Sha256Hash, byte[]> e : dropped.entrySet()) {
                IndexedFilter stale = reader.filter(e.getKey()).orElseThrow();
                assertFalse(stale.active(), "dropped block " + e.getKey() + " is stale");
                assertArrayEquals(e.getValue(), stale.filter(), "stale filter kept as btcd served it");
            }
            try (IndexStore fresh = IndexStore.open(tmp.resolve("fresh"));
                    FilterIndexer freshIndexer = new FilterIndexer(fresh, source(), Duration.ofMillis(100))) {
                freshIndexer.syncOnce();
                assertEquals(
                        fresh.inspection().contentDigest(CHAIN_STATE),
                        store.inspection().contentDigest(CHAIN_STATE));
            }

            // Following the tip: the background indexer sees blocks btcd mines from now on.
            int target = node.tipHeight() + 3;
            CountDownLatch reached = new CountDownLatch(1);
            indexer.onTipChanged(tip -> {
                if (tip.height() >= target) {
                    reached.countDown();
                }
            });
            indexer.start();
            node.mine(3);
            assertTrue(reached.await(60, TimeUnit.SECONDS), "follower reached height " + target);
            assertEqualsBtcdAtEveryHeight(store);
        }
    }

    private void assertEqualsBtcdAtEveryHeight(IndexStore store) {
        int tip = node.tipHeight();
        assertEquals(tip, store.tip().orElseThrow().height());
        List<IndexedFilter> ours = new ArrayList<>(new StoreFilterIndexReader(store)
                .range(0, node.blockHash(tip).orElseThrow())
                .orElseThrow());
        assertEquals(tip + 1, ours.size());
        for (IndexedFilter f : ours) {
            Sha256Hash hash = node.blockHash(f.height()).orElseThrow();
            assertEquals(hash, f.blockHash(), "height " + f.height());
            byte[] theirs = node.cfilter(hash);
            assertArrayEquals(
                    theirs,
                    f.filter(),
                    () -> "height " + f.height() + ": ours " + HexFormat.of().formatHex(f.filter()) + " btcd "
                            + HexFormat.of().formatHex(theirs));
            assertEquals(node.cfilterHeader(hash), f.header(), "filter header at height " + f.height());
        }
    }
}
