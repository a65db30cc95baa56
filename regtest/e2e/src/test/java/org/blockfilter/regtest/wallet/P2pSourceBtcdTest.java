package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.PrevoutScripts;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * P2pSource against a real btcd: what it fetches over BIP 157 P2P (headers, cfheaders,
 * cfcheckpt, cfilters, blocks) equals what our filters module computes from the chain itself,
 * before and after a reorg; transactions are relayed and rejections named. (Refusing a node
 * without NODE_COMPACT_FILTERS is unit-tested against a scripted peer: BtcdOptions forbids
 * --nocfilters.)
 */
@ExtendWith(NodeLogOnFailure.class)
class P2pSourceBtcdTest {
    private static final P2pSource.Options OPTIONS = P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10));
    private BtcdNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private P2pSource connect() {
        return P2pSource.connect(node.p2pAddress().orElseThrow(), Chain.REGTEST, OPTIONS);
    }

    /** Our BIP 158 filters and BIP 157 headers for the node's best chain, computed from its blocks. */
    private record Expected(List<Sha256Hash> blockHashes, List<BasicFilter> filters, List<Sha256Hash> headers) {}

    private Expected compute() {
        Map<TransactionOutPoint, byte[]> outputs = new HashMap<>();
        PrevoutScripts prevouts = PrevoutScripts.fromMap(outputs);
        List<Sha256Hash> hashes = new ArrayList<>();
        List<BasicFilter> filters = new ArrayList<>();
        List<Sha256Hash> headers = new ArrayList<>();
        Sha256Hash prev = FilterHeaders.GENESIS_PREV;
        for (int h = 0; h <= node.tipHeight(); h++) {
            Sha256Hash hash = node.blockHash(h).orElseThrow();
            Block block = node.block(hash).orElseThrow();
            for (Transaction tx : block.getTransactions()) {
                for (TransactionOutput out : tx.getOutputs()) {
                    outputs.put(new TransactionOutPoint(out.getIndex(), tx.getTxId()), out.getScriptBytes());
                }
            }
            BasicFilter f = BasicFilter.build(block, prevouts);
            prev = f.header(prev);
            hashes.add(hash);
            filters.add(f);
            headers.add(prev);
        }
        return new Expected(hashes, filters, headers);
    }

    private static Sha256Hash hashOf(byte[] header) {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header));
    }

    private void assertSourceMatches(P2pSource source, Expected expected) {
        int tip = expected.blockHashes().size() - 1;
        assertEquals(tip, source.tipHeight());
        Sha256Hash tipHash = expected.blockHashes().get(tip);

        for (int start = 0; start <= tip; start += 2000) {
            List<byte[]> headers = source.blockHeaders(start, 2000);
            assertEquals(Math.min(2000, tip - start + 1), headers.size());
            for (int i = 0; i < headers.size(); i++) {
                assertEquals(expected.blockHashes().get(start + i), hashOf(headers.get(i)), "header at " + (start + i));
            }
        }
        for (int start = 0; start <= tip; start += 2000) {
            int stop = Math.min(tip, start + 1999);
            ChainSource.FilterHashBatch fh =
                    source.filterHeaders(start, expected.blockHashes().get(stop));
            assertEquals(
                    start == 0 ? FilterHeaders.GENESIS_PREV : expected.headers().get(start - 1), fh.previousHeader());
            for (int i = 0; i < fh.filterHashes().size(); i++) {
                assertEquals(
                        expected.filters().get(start + i).filterHash(),
                        fh.filterHashes().get(i),
                        "filter hash at " + (start + i));
            }
        }
        for (int start = 0; start <= tip; start += 1000) {
            int stop = Math.min(tip, start + 999);
            List<ChainSource.BlockFilterBytes> filters =
                    source.filters(start, expected.blockHashes().get(stop));
            assertEquals(stop - start + 1, filters.size());
            for (int i = 0; i < filters.size(); i++) {
                assertEquals(
                        expected.blockHashes().get(start + i), filters.get(i).blockHash());
                assertArrayEquals(
                        expected.filters().get(start + i).bytes(),
                        filters.get(i).filter(),
                        "filter at " + (start + i));
            }
        }
        assertEquals(FilterHeaders.checkpoints(expected.headers()), source.filterCheckpoints(tipHash));
        assertArrayEquals(node.rawBlock(tipHash).orElseThrow(), source.block(tipHash));
    }

    @Test
    void filtersHeadersCheckpointsAndBlocksFromBtcdEqualOurOwnBeforeAndAfterAReorg() {
        ScenarioSpec spec = ScenarioSpec.small(20_261_130L, 30);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        ScenarioRunner.run(node, spec);
        node.mine(1001 - node.tipHeight()); // past height 1000, so there is a checkpoint
        try (P2pSource source = connect()) {
            Expected before = compute();
            assertEquals(1, FilterHeaders.checkpoints(before.headers()).size());
            assertSourceMatches(source, before);

            node.reorg(3, 5);
            Expected after = compute();
            assertTrue(!after.blockHashes()
                    .get(after.blockHashes().size() - 4)
                    .equals(before.blockHashes().get(before.blockHashes().size() - 3)));
            assertSourceMatches(source, after);
        }
    }

    @Test
    void transactionsAreRelayedAndRejectionsNamed() {
        ScenarioSpec spec = ScenarioSpec.small(7L, 5);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        GroundTruth truth = ScenarioRunner.run(node, spec);
        OwnedOutput coin = truth.outputs().stream()
                .filter(o -> o.unspent()
                        && !o.coinbase()
                        && o.script().kind() == OutputKind.P2WPKH
                        && o.value().isGreaterThan(Coin.valueOf(100_000)))
                .findFirst()
                .orElseThrow();
        Transaction spend = new Transaction();
        spend.addOutput(
                coin.value().subtract(Coin.valueOf(10_000)), coin.script().scriptPubKey());
        spend.addSignedInput(
                coin.outpoint(),
                coin.script().scriptPubKey(),
                coin.value(),
                coin.script().keys().get(0));
        Transaction doubleSpend = new Transaction();
        doubleSpend.addOutput(
                coin.value().subtract(Coin.valueOf(20_000)), coin.script().scriptPubKey());
        doubleSpend.addSignedInput(
                coin.outpoint(),
                coin.script().scriptPubKey(),
                coin.value(),
                coin.script().keys().get(0));

        try (P2pSource source = connect()) {
            assertEquals(spend.getTxId(), source.broadcast(spend.serialize()));
            assertEquals(spend.getTxId(), source.broadcast(spend.serialize()), "rebroadcast is idempotent");
            NotAcceptedException e =
                    assertThrows(NotAcceptedException.class, () -> source.broadcast(doubleSpend.serialize()));
            assertTrue(
                    e.getMessage()
                            .contains("transaction " + doubleSpend.getTxId() + " not accepted: the peer rejected it"),
                    e.getMessage());
        }
        List<Sha256Hash> mined = node.mine(1);
        Block block = node.block(mined.get(0)).orElseThrow();
        assertTrue(
                block.getTransactions().stream().anyMatch(t -> t.getTxId().equals(spend.getTxId())),
                "relayed tx was mined");
    }
}
