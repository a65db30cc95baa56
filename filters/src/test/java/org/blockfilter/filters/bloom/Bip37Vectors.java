package org.blockfilter.filters.bloom;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Vectors;
import org.junit.jupiter.params.provider.Arguments;

/** Reads {@code bip37/bloom_vectors.json} from the classpath copy of the official vectors. */
final class Bip37Vectors {
    static final HexFormat HEX = HexFormat.of();

    private Bip37Vectors() {}

    static JsonNode root() {
        return Vectors.json("bip37/bloom_vectors.json");
    }

    /** One scenario: a name, its ordered steps, the block it uses (if any) and the named transactions. */
    record Scenario(String name, JsonNode steps, Block block, Map<String, Transaction> txs) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Every step scenario in the file: filter_serialize, bloom_match and merkle_blocks. */
    static List<Arguments> scenarios() {
        JsonNode root = root();
        List<Arguments> out = new ArrayList<>();
        for (JsonNode s : root.get("filter_serialize")) {
            out.add(Arguments.of(new Scenario(s.get("name").asText(), s.get("steps"), null, Map.of())));
        }
        JsonNode m = root.get("bloom_match");
        Map<String, Transaction> txs = new HashMap<>();
        txs.put(
                "tx",
                Transaction.read(ByteBuffer.wrap(HEX.parseHex(m.get("tx_hex").asText()))));
        txs.put(
                "spending_tx",
                Transaction.read(
                        ByteBuffer.wrap(HEX.parseHex(m.get("spending_tx_hex").asText()))));
        out.add(Arguments.of(new Scenario(m.get("name").asText(), m.get("steps"), null, txs)));
        Map<String, Block> blocks = new HashMap<>();
        for (JsonNode b : root.get("blocks")) {
            blocks.put(
                    b.get("block_hash").asText(),
                    Block.read(ByteBuffer.wrap(HEX.parseHex(b.get("block_hex").asText()))));
        }
        for (JsonNode s : root.get("merkle_blocks")) {
            Block block = blocks.get(s.get("block_hash").asText());
            out.add(Arguments.of(new Scenario(s.get("name").asText(), s.get("steps"), block, Map.of())));
        }
        return out;
    }

    static List<Arguments> murmur() {
        List<Arguments> out = new ArrayList<>();
        for (JsonNode v : root().get("murmurhash3").get("vectors")) {
            out.add(Arguments.of(
                    v.get("seed").asLong(),
                    v.get("data_hex").asText(),
                    v.get("expected").asLong()));
        }
        return out;
    }

    static List<Arguments> blocks() {
        List<Arguments> out = new ArrayList<>();
        for (JsonNode b : root().get("blocks")) {
            out.add(Arguments.of(
                    b.get("block_hash").asText(), b.get("block_hex").asText()));
        }
        return out;
    }
}
