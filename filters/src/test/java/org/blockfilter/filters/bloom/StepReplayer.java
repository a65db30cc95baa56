package org.blockfilter.filters.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;

/** Replays a vector's steps, in order, on one filter implementation. */
final class StepReplayer {
    /** The operations a step can ask of a filter implementation. */
    interface Subject {
        void newFilter(int elements, double fpRate, int tweak, UpdateFlag flag);

        void insert(byte[] data);

        boolean contains(byte[] data);

        boolean isRelevantAndUpdate(Transaction tx);

        /** Filters the block; returns matched indices, txids and the merkleblock bytes. */
        Built buildMerkleBlock(Block block);

        byte[] serializeFilter();
    }

    record Built(List<Integer> indices, List<Sha256Hash> txids, byte[] serialized) {}

    private StepReplayer() {}

    static void replay(Bip37Vectors.Scenario scenario, Subject subject) {
        Built built = null;
        int n = 0;
        for (JsonNode step : scenario.steps()) {
            String where = scenario.name() + " step " + n++ + " " + step;
            switch (step.get("op").asText()) {
                case "new_filter" ->
                    subject.newFilter(
                            step.get("n_elements").asInt(),
                            step.get("fp_rate").asDouble(),
                            (int) step.get("tweak").asLong(),
                            UpdateFlag.ofWireValue(step.get("flags").asInt()));
                case "insert" -> subject.insert(hex(step, "data_hex"));
                case "contains" ->
                    assertEquals(step.get("expect").asBoolean(), subject.contains(hex(step, "data_hex")), where);
                case "is_relevant_and_update" ->
                    assertEquals(
                            step.get("expect").asBoolean(),
                            subject.isRelevantAndUpdate(
                                    scenario.txs().get(step.get("tx").asText())),
                            where);
                case "build_merkleblock" -> built = subject.buildMerkleBlock(scenario.block());
                case "expect_matched_count" ->
                    assertEquals(
                            step.get("count").asInt(),
                            requireBuilt(built, where).indices().size(),
                            where);
                case "expect_matched_index" ->
                    assertEquals(
                            step.get("tx_index").asInt(),
                            requireBuilt(built, where)
                                    .indices()
                                    .get(step.get("position").asInt()),
                            where);
                case "expect_matched_txid" ->
                    assertEquals(
                            Sha256Hash.wrap(step.get("txid").asText()),
                            requireBuilt(built, where)
                                    .txids()
                                    .get(step.get("position").asInt()),
                            where);
                case "expect_serialized_filter" ->
                    assertEquals(
                            step.get("hex").asText(), Bip37Vectors.HEX.formatHex(subject.serializeFilter()), where);
                case "expect_serialized_merkleblock" ->
                    assertArrayEquals(
                            hex(step, "hex"), requireBuilt(built, where).serialized(), where);
                default -> throw new AssertionError("unknown op in " + where);
            }
        }
    }

    private static Built requireBuilt(Built built, String where) {
        assertNotNull(built, "no build_merkleblock before " + where);
        return built;
    }

    private static byte[] hex(JsonNode step, String field) {
        return Bip37Vectors.HEX.parseHex(step.get(field).asText());
    }
}
