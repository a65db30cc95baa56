package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Bip157;
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
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The REST contract end to end: RestSource against our real server (indexing btcd) answers
 * exactly what P2pSource gets from btcd over BIP 157, for every call of the ChainSource
 * interface, and relays transactions to the node.
 */
@ExtendWith(NodeLogOnFailure.class)
class RestSourceServerTest {
    private BtcdNode node;
    private ServerOnNode server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void restSourceOnOurServerAnswersWhatBtcdAnswersOverBip157() throws IOException {
        ScenarioSpec spec = ScenarioSpec.small(99L, 20);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        GroundTruth truth = ScenarioRunner.run(node, spec);
        node.mine(1001 - node.tipHeight()); // a checkpoint at 1000
        server = new ServerOnNode(node);
        try (RestSource rest = RestSource.create(server.baseUri(), Duration.ofSeconds(30));
                P2pSource p2p =
                        P2pSource.connect(node.p2pAddress().orElseThrow(), Chain.REGTEST, P2pSource.Options.DEFAULT)) {
            int tip = p2p.tipHeight();
            assertEquals(tip, rest.tipHeight());
            Sha256Hash tipHash = node.tipHash();
            for (int start = 0; start <= tip; start += 2000) {
                List<byte[]> a = rest.blockHeaders(start, 2000);
                List<byte[]> b = p2p.blockHeaders(start, 2000);
                assertEquals(b.size(), a.size());
                for (int i = 0; i < a.size(); i++) {
                    assertArrayEquals(b.get(i), a.get(i), "header " + (start + i));
                }
            }
            assertEquals(p2p.filterCheckpoints(tipHash), rest.filterCheckpoints(tipHash));
            assertEquals(1, rest.filterCheckpoints(tipHash).size());
            for (int start = 0; start <= tip; start += Bip157.MAX_CFHEADERS) {
                Sha256Hash stop = node.blockHash(Math.min(tip, start + Bip157.MAX_CFHEADERS - 1))
                        .orElseThrow();
                assertEquals(
                        p2p.filterHeaders(start, stop), rest.filterHeaders(start, stop), "cfheaders from " + start);
            }
            for (int start = 0; start <= tip; start += Bip157.MAX_CFILTERS) {
                Sha256Hash stop = node.blockHash(Math.min(tip, start + Bip157.MAX_CFILTERS - 1))
                        .orElseThrow();
                List<ChainSource.BlockFilterBytes> fromRest = rest.filters(start, stop);
                assertEquals(p2p.filters(start, stop), fromRest, "cfilters from " + start);
            }
            for (int h : List.of(0, 150, tip)) {
                Sha256Hash hash = node.blockHash(h).orElseThrow();
                assertArrayEquals(p2p.block(hash), rest.block(hash), "block at " + h);
            }
            SourceException unknown =
                    assertThrows(SourceException.class, () -> rest.block(Sha256Hash.of(new byte[] {1})));
            assertTrue(unknown.getMessage().contains("HTTP 404"), unknown.getMessage());

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
            assertEquals(spend.getTxId(), rest.broadcast(spend.serialize()));
            Transaction doubleSpend = new Transaction();
            doubleSpend.addOutput(
                    coin.value().subtract(Coin.valueOf(20_000)), coin.script().scriptPubKey());
            doubleSpend.addSignedInput(
                    coin.outpoint(),
                    coin.script().scriptPubKey(),
                    coin.value(),
                    coin.script().keys().get(0));
            SourceException rejected =
                    assertThrows(SourceException.class, () -> rest.broadcast(doubleSpend.serialize()));
            assertTrue(rejected.getMessage().contains("HTTP 400"), rejected.getMessage());
        }
        List<Sha256Hash> mined = node.mine(1);
        assertTrue(node.block(mined.get(0)).orElseThrow().getTransactions().size() == 2, "the relayed spend was mined");
    }
}
