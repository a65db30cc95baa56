package org.blockfilter.regtest.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.scenario.ScenarioWallet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioMainTest {

    @Test
    void truthFileListsWalletsWithTheirBalancesScriptsAndKeys(@TempDir Path dir) throws Exception {
        ScenarioSpec spec = ScenarioSpec.small(9, 5);
        GroundTruth truth;
        try (EmbeddedNode node =
                EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()))) {
            truth = ScenarioRunner.run(node, spec, line -> {});
        }
        Path file = dir.resolve("truth.json");
        ScenarioMain.writeTruth(truth, file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertEquals(truth.tipHash().toString(), json.get("tipHash").asText());
        assertEquals(truth.wallets().size(), json.get("wallets").size());
        for (ScenarioWallet w : truth.wallets()) {
            JsonNode node = json.get("wallets").get(w.index());
            assertEquals(truth.balance(w.index()).value, node.get("balanceSats").asLong());
            assertEquals(w.scripts().size(), node.get("scripts").size());
            assertEquals(w.keys().size(), node.get("keysWif").size());
        }
    }
}
