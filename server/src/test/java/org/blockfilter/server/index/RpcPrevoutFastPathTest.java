package org.blockfilter.server.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.Http11OnlyNode;
import org.blockfilter.server.rpc.Http11OnlyNode.Answer;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prevout fast path over JSON-RPC: against a node answering {@code getblock hash 3} as Bitcoin
 * Core >= 23 does, prevout scripts come from the node; against nodes that refuse verbosity 3 or
 * answer it as verbosity 2 (older Core, btcd's {@code rawtx}, the embedded node) the indexer falls
 * back to its unspent-output map. Every variant gives a store byte-identical to the plain path.
 */
class RpcPrevoutFastPathTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dir;

    /** Blocks spending the previous coinbase to a P2PKH, then that output again in the same block. */
    private static RegtestChainBuilder chain() {
        RegtestChainBuilder chain = new RegtestChainBuilder(4242);
        for (int i = 0; i < 12; i++) {
            Transaction coinbase = chain.tip().getTransactions().get(0);
            Transaction spend = chain.spend(
                    coinbase.getOutput(0),
                    ScriptBuilder.createP2PKHOutputScript(chain.minerKey()),
                    Coin.COIN.multiply(49),
                    null);
            Transaction chained = chain.spend(spend.getOutput(0), chain.minerScript(), Coin.COIN, ("n" + i).getBytes());
            chain.mineBlock(List.of(spend, chained));
        }
        return chain;
    }

    /** {@code getblock hash 3} in Bitcoin Core's shape (fields the indexer ignores included). */
    private static String coreVerbose3(RegtestChainBuilder chain, Block b, boolean withPrevouts) {
        ObjectNode o = JSON.createObjectNode();
        o.put("hash", b.getHash().toString());
        o.put("confirmations", 1);
        o.put("height", chain.height(b.getHash()));
        o.put("version", b.getVersion());
        o.put("versionHex", String.format("%08x", b.getVersion()));
        o.put("merkleroot", b.getMerkleRoot().toString());
        o.put("time", b.time().getEpochSecond());
        o.put("mediantime", b.time().getEpochSecond());
        o.put("nonce", b.getNonce());
        o.put("bits", String.format("%08x", b.getDifficultyTarget()));
        o.put("difficulty", 4.6e-10);
        o.put("nTx", b.getTransactions().size());
        if (!b.getPrevBlockHash().equals(Sha256Hash.ZERO_HASH)) {
            o.put("previousblockhash", b.getPrevBlockHash().toString());
        }
        ArrayNode txs = o.putArray("tx");
        for (Transaction tx : b.getTransactions()) {
            ObjectNode t = txs.addObject();
            t.put("txid", tx.getTxId().toString());
            ArrayNode vin = t.putArray("vin");
            for (TransactionInput in : tx.getInputs()) {
                ObjectNode i = vin.addObject();
                if (tx.isCoinBase()) {
                    i.put("coinbase", HEX.formatHex(in.getScriptBytes()));
                } else {
                    i.put("txid", in.getOutpoint().hash().toString());
                    i.put("vout", in.getOutpoint().index());
                    i.putObject("scriptSig").put("asm", "").put("hex", "");
                    if (withPrevouts) {
                        ObjectNode prevout = i.putObject("prevout");
                        prevout.put("generated", false).put("height", 1).put("value", 50.0);
                        prevout.putObject("scriptPubKey")
                                .put("asm", "OP_DUP ...")
                                .put("desc", "addr(...)#abcd")
                                .put("hex", HEX.formatHex(chain.scriptOf(in.getOutpoint())))
                                .put("type", "pubkeyhash");
                    }
                }
                i.put("sequence", in.getSequenceNumber());
            }
            ArrayNode vout = t.putArray("vout");
            for (TransactionOutput out : tx.getOutputs()) {
                vout.addObject()
                        .put("n", out.getIndex())
                        .putObject("scriptPubKey")
                        .put("hex", "00");
            }
            t.put("fee", 0.0001);
            t.put("hex", HEX.formatHex(tx.serialize())); // Core puts it last, after vin
        }
        return o.toString();
    }

    /** btcd answers any verbosity above 1 like 2, with the transactions under "rawtx". */
    private static String btcdVerbose(Block b) {
        ObjectNode o = JSON.createObjectNode();
        o.put("hash", b.getHash().toString());
        o.put("version", b.getVersion());
        o.put("merkleroot", b.getMerkleRoot().toString());
        o.put("previousblockhash", b.getPrevBlockHash().toString());
        o.put("time", b.time().getEpochSecond());
        o.put("nonce", b.getNonce());
        o.put("bits", Long.toHexString(b.getDifficultyTarget()));
        ArrayNode txs = o.putArray("rawtx");
        for (Transaction tx : b.getTransactions()) {
            ObjectNode t = txs.addObject().put("hex", HEX.formatHex(tx.serialize()));
            t.putArray("vin").addObject().put("txid", "00").put("vout", 0);
        }
        return o.toString();
    }

    private record Run(IndexStore store, IngestStats stats) {}

    private Run index(String name, BiFunction<String, JsonNode, Answer> node, boolean usePrevouts) throws Exception {
        IndexStore store = IndexStore.open(dir.resolve(name));
        try (Http11OnlyNode server = new Http11OnlyNode(node);
                FilterIndexer indexer = new FilterIndexer(
                        store,
                        new RpcBlockSource(new BitcoinRpc(
                                JsonRpcClient.create(server.endpoint(), "u", "p", Duration.ofSeconds(10)))),
                        Duration.ofMillis(50),
                        IngestSettings.DEFAULT,
                        usePrevouts)) {
            indexer.syncOnce();
            return new Run(store, indexer.status().ingest());
        }
    }

    private static BiFunction<String, JsonNode, Answer> node(
            RegtestChainBuilder chain, Map<String, AtomicInteger> calls, VerboseAnswer verbose) {
        return (method, params) -> {
            int verbosity = params.path(1).asInt(1);
            calls.computeIfAbsent(method + "/" + (method.equals("getblock") ? verbosity : 0), k -> new AtomicInteger())
                    .incrementAndGet();
            if (method.equals("getblock") && verbosity == 3) {
                int h = chain.height(Sha256Hash.wrap(params.path(0).asText()));
                return verbose.answer(chain, chain.block(h));
            }
            return Http11OnlyNode.chainAnswer(chain, method, params);
        };
    }

    @FunctionalInterface
    private interface VerboseAnswer {
        Answer answer(RegtestChainBuilder chain, Block block);
    }

    private IndexStore reference(RegtestChainBuilder chain) throws Exception {
        return index("reference", node(chain, new ConcurrentHashMap<>(), null), false)
                .store();
    }

    @Test
    void coreVerbosity3GivesPrevoutsFromTheNodeAndAByteIdenticalIndex() throws Exception {
        RegtestChainBuilder chain = chain();
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        Run fast = index("fast", node(chain, calls, (c, b) -> Answer.result(coreVerbose3(c, b, true))), true);
        try (IndexStore expected = reference(chain);
                IndexStore store = fast.store()) {
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
            assertEquals(12, fast.stats().prevoutsFromNode(), "one per block: the other spends its own block");
            assertEquals(null, calls.get("getblock/0"), "no raw getblock needed: " + calls);
        }
    }

    @Test
    void nodeRefusingVerbosity3IsIndexedFromTheUtxoMap() throws Exception {
        RegtestChainBuilder chain = chain();
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        Run run = index(
                "refusing",
                node(
                        chain,
                        calls,
                        (c, b) -> Answer.raw(
                                500,
                                "application/json",
                                "{\"result\":null,\"error\":{\"code\":-8,\"message\":\"Verbosity must be in range"
                                        + " 0..2\"},\"id\":1}")),
                true);
        try (IndexStore expected = reference(chain);
                IndexStore store = run.store()) {
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
            assertEquals(0, run.stats().prevoutsFromNode());
            assertEquals(1, calls.get("getblock/3").get(), "probed once: " + calls);
        }
    }

    @Test
    void nodesAnsweringVerbosity3AsVerbosity2AreIndexedFromTheUtxoMap() throws Exception {
        RegtestChainBuilder chain = chain();
        for (VerboseAnswer answer : List.<VerboseAnswer>of(
                (c, b) -> Answer.result(coreVerbose3(c, b, false)), // Core < 23, the embedded node
                (c, b) -> Answer.result(btcdVerbose(b)))) {
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            Run run = index("v2-" + System.identityHashCode(answer), node(chain, calls, answer), true);
            try (IndexStore expected = reference(chain);
                    IndexStore store = run.store()) {
                assertEquals(
                        expected.inspection().contentDigest(),
                        store.inspection().contentDigest());
                assertEquals(0, run.stats().prevoutsFromNode());
                assertEquals(1, calls.get("getblock/3").get(), "probed once: " + calls);
            }
            deleteReference();
        }
    }

    @Test
    void blockAnsweredWithoutPrevoutsAfterAGoodProbeFallsBackToTheMapForThatBlock() throws Exception {
        RegtestChainBuilder chain = chain();
        Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
        Run run = index(
                "mixed",
                node(chain, calls, (c, b) -> Answer.result(coreVerbose3(c, b, c.height(b.getHash()) % 2 == 0))),
                true);
        try (IndexStore expected = reference(chain);
                IndexStore store = run.store()) {
            assertEquals(
                    expected.inspection().contentDigest(), store.inspection().contentDigest());
            assertEquals(6, run.stats().prevoutsFromNode());
            assertTrue(run.stats().prevoutsFromNode() < run.stats().inputs());
        }
    }

    private void deleteReference() throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(dir.resolve("reference"))) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
}
