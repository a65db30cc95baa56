package org.blockfilter.regtest.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.FilterHeaders;
import org.blockfilter.filters.PrevoutScripts;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.DockerClientFactory;

/**
 * Bitcoin Core through Testcontainers: the shared RPC backend, a small scenario with a reorg,
 * and Core's {@code getblockfilter} equal to our filters and headers. Skipped without Docker.
 */
@ExtendWith(NodeLogOnFailure.class)
class BitcoinCoreNodeTest {
    /** Skips, with the reason in the test report, on hosts without a Docker engine (such as our CI machines). */
    @BeforeEach
    void needsDocker() {
        assumeTrue(
                DockerClientFactory.instance().isDockerAvailable(),
                "skipped: Bitcoin Core runs in a Testcontainers container and this host has no Docker engine"
                        + " (the docker client alone is not enough); the btcd tests are the cross-implementation check here");
    }

    private static final HexFormat HEX = HexFormat.of();
    private BitcoinCoreNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void runsAScenarioWithAReorgAndServesTheSameFiltersAsOurs() {
        ScenarioSpec spec = ScenarioSpec.small(3, 20).withReorgs(List.of(new ScenarioSpec.Reorg(110, 2)));
        node = BitcoinCoreNode.start(spec.miningAddress());
        GroundTruth truth = ScenarioRunner.run(node, spec, line -> {});
        assertEquals(node.tipHash(), truth.tipHash());

        Map<TransactionOutPoint, byte[]> outputs = new HashMap<>();
        Sha256Hash prevHeader = FilterHeaders.GENESIS_PREV;
        for (int height = 0; height <= truth.tipHeight(); height++) {
            Sha256Hash hash = truth.blockHashes().get(height);
            Block block = node.block(hash).orElseThrow();
            for (Transaction tx : block.getTransactions()) {
                for (TransactionOutput out : tx.getOutputs()) {
                    outputs.put(new TransactionOutPoint(out.getIndex(), tx.getTxId()), out.getScriptBytes());
                }
            }
            BasicFilter ours = BasicFilter.build(block, PrevoutScripts.fromMap(outputs));
            JsonNode theirs = node.rpcClient().call("getblockfilter", hash.toString(), "basic");
            assertEquals(theirs.get("filter").asText(), HEX.formatHex(ours.bytes()), "filter at height " + height);
            prevHeader = ours.header(prevHeader);
            assertEquals(Sha256Hash.wrap(theirs.get("header").asText()), prevHeader, "header at height " + height);
        }
    }
}
