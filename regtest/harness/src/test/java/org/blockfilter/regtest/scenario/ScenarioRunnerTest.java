package org.blockfilter.regtest.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.ScriptPattern;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NodeLogOnFailure.class)
class ScenarioRunnerTest {
    private BtcdNode node;
    private BtcdNode other;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
        if (other != null) {
            other.close();
        }
    }

    private static BtcdNode start(ScenarioSpec spec) {
        Path binary = BtcdTestSupport.binaryOrSkip();
        return BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(binary));
    }

    @Test
    void buildsEveryOutputKindWithMultiInputSpendsReuseAndAReorg() {
        ScenarioSpec spec = ScenarioSpec.small(42, 40).withReorgs(List.of(new ScenarioSpec.Reorg(120, 3)));
        node = start(spec);
        GroundTruth truth = ScenarioRunner.run(node, spec, line -> {});

        assertTrue(truth.tipHeight() >= spec.blocks());
        assertEquals(node.tipHash(), truth.tipHash());
        Set<OutputKind> kinds = truth.outputs().stream()
                .map(o -> o.script().kind())
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(OutputKind.class)));
        assertEquals(EnumSet.complementOf(EnumSet.of(OutputKind.OP_RETURN)), kinds, "every owned kind appears");
        Set<OutputKind> spentKinds = truth.outputs().stream()
                .filter(o -> !o.unspent())
                .map(o -> o.script().kind())
                .collect(Collectors.toSet());
        assertTrue(
                spentKinds.containsAll(EnumSet.of(
                        OutputKind.P2PKH,
                        OutputKind.P2WPKH,
                        OutputKind.P2SH_MULTISIG,
                        OutputKind.P2WSH_MULTISIG,
                        OutputKind.BARE_MULTISIG)),
                "every signable kind is spent: " + spentKinds);
        assertFalse(spentKinds.contains(OutputKind.P2TR));

        // Cross-check against the node itself: each scenario tx is in the block the truth names.
        Map<Sha256Hash, Block> byHash = new HashMap<>();
        boolean multiInput = false;
        boolean opReturn = false;
        for (ScenarioTx tx : truth.transactions()) {
            Block block =
                    byHash.computeIfAbsent(tx.blockHash(), h -> node.block(h).orElseThrow());
            Transaction onChain = block.getTransactions().stream()
                    .filter(t -> t.getTxId().equals(tx.txid()))
                    .findFirst()
                    .orElseThrow();
            assertEquals(tx.blockHash(), node.blockHash(tx.height()).orElseThrow());
            multiInput |= onChain.getInputs().size() > 1;
            opReturn |= onChain.getOutputs().stream()
                    .map(TransactionOutput::getScriptPubKey)
                    .anyMatch(ScriptPattern::isOpReturn);
        }
        assertTrue(multiInput, "some transaction spends several inputs");
        assertTrue(opReturn, "some transaction carries an OP_RETURN output");
        Map<OwnedScript, Long> receipts = truth.outputs().stream()
                .filter(o -> !o.coinbase())
                .collect(Collectors.groupingBy(OwnedOutput::script, Collectors.counting()));
        assertTrue(receipts.values().stream().anyMatch(n -> n > 1), "some script receives twice (address reuse)");

        assertEquals(1, truth.reorgs().size());
        ReorgRecord reorg = truth.reorgs().get(0);
        assertEquals(117, reorg.forkHeight());
        for (Sha256Hash dropped : reorg.dropped()) {
            assertFalse(truth.blockHashes().contains(dropped), "dropped block left the best chain");
        }
        assertEquals(reorg.branch(), truth.blockHashes().subList(118, 122));
    }

    @Test
    void sameSeedGivesTheSameWalletsAndBalances() {
        ScenarioSpec spec = ScenarioSpec.small(7, 12);
        node = start(spec);
        other = start(spec);
        GroundTruth a = ScenarioRunner.run(node, spec, line -> {});
        GroundTruth b = ScenarioRunner.run(other, spec, line -> {});
        assertEquals(a.balances(), b.balances());
        assertEquals(a.transactions().size(), b.transactions().size());
        assertEquals(a.wallets(), b.wallets());
        assertTrue(
                a.transactions().size() > 10,
                "the small scenario has transactions: " + a.transactions().size());
    }

    @Test
    void refusesANodeThatMinesElsewhere() {
        ScenarioSpec spec = ScenarioSpec.small(1, 1);
        node = start(ScenarioSpec.small(2, 1));
        assertThrows(IllegalArgumentException.class, () -> ScenarioRunner.run(node, spec, line -> {}));
    }
}
