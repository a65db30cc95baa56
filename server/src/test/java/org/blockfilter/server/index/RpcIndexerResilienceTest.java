package org.blockfilter.server.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.Http11OnlyNode;
import org.blockfilter.server.rpc.Http11OnlyNode.Answer;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background indexer over JSON-RPC against a node that answers nonsense: it keeps running and
 * retrying (it used to stop, and the server with it, on {@code IllegalArgumentException: length
 * must be 32: 0}), and indexes as soon as the node answers properly again.
 */
class RpcIndexerResilienceTest {
    @TempDir
    Path dir;

    @Test
    void bestBlockHashOfTheWrongShapeIsRetriedNotFatal() throws Exception {
        RegtestChainBuilder chain = new RegtestChainBuilder().mine(3);
        AtomicBoolean broken = new AtomicBoolean(true);
        try (Http11OnlyNode node =
                        new Http11OnlyNode((method, params) -> broken.get() && method.equals("getbestblockhash")
                                ? Answer.result("{\"hash\":\"" + chain.tip().getHash() + "\"}")
                                : Http11OnlyNode.chainAnswer(chain, method, params));
                IndexStore store = IndexStore.open(dir);
                FilterIndexer indexer = new FilterIndexer(
                        store,
                        new RpcBlockSource(new BitcoinRpc(
                                JsonRpcClient.create(node.endpoint(), "u", "p", Duration.ofSeconds(10)))),
                        Duration.ofMillis(5))) {
            CountDownLatch synced = new CountDownLatch(1);
            indexer.onTipChanged(tip -> {
                if (tip.height() == 3) {
                    synced.countDown();
                }
            });
            indexer.start();

            assertTrue(node.awaitCalls("getbestblockhash", 3, 60), "the indexer asked again");
            FilterIndexer.Status status = indexer.status();
            assertTrue(status.running(), "still running");
            assertTrue(status.lastFault().isPresent(), "the fault is reported");

            broken.set(false);
            assertTrue(synced.await(60, TimeUnit.SECONDS), "indexed once the node answered properly");
            assertEquals(3, store.tip().orElseThrow().height());
        }
    }
}
