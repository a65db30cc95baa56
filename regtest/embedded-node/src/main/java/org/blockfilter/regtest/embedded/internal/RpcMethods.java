package org.blockfilter.regtest.embedded.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.AddressParser;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.base.exceptions.AddressFormatException;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.embedded.RejectedException;

/**
 * The Bitcoin Core RPC methods the embedded node answers, with Core's result shapes, error codes
 * and messages. Positional parameters only. Each call runs holding the chain's lock, so it sees
 * one consistent state. Thread-safe.
 */
final class RpcMethods {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final HexFormat HEX = HexFormat.of();
    private static final AddressParser ADDRESSES = AddressParser.getDefault(BitcoinNetwork.REGTEST);
    /** Refuse to mine more than this in one call, so a typo cannot hang the node. */
    private static final int MAX_GENERATE = 10_000;

    private final Chain chain;
    private final long startedMillis = System.currentTimeMillis();
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    RpcMethods(Chain chain) {
        this.chain = chain;
    }

    /** Whether a client called {@code stop}; the transport stops the node once it has replied. */
    boolean stopRequested() {
        return stopRequested.get();
    }

    JsonNode call(String method, ArrayNode p) {
        synchronized (chain) {
            return switch (method) {
                case "getblockchaininfo" -> {
                    arity(p, 0, 0, "getblockchaininfo");
                    yield blockchainInfo();
                }
                case "getblockcount" -> {
                    arity(p, 0, 0, "getblockcount");
                    yield NODES.numberNode(chain.height());
                }
                case "getbestblockhash" -> {
                    arity(p, 0, 0, "getbestblockhash");
                    yield text(chain.tip().hash());
                }
                case "getdifficulty" -> {
                    arity(p, 0, 0, "getdifficulty");
                    yield NODES.numberNode(difficulty(chain.tip()));
                }
                case "getblockhash" -> blockHash(p);
                case "getblock" -> block(p);
                case "getblockheader" -> blockHeader(p);
                case "getchaintips" -> {
                    arity(p, 0, 0, "getchaintips");
                    yield chainTips();
                }
                case "getrawtransaction" -> rawTransaction(p);
                case "sendrawtransaction" -> sendRawTransaction(p);
                case "submitblock" -> submitBlock(p);
                case "generatetoaddress" -> generateToAddress(p);
                case "invalidateblock" -> {
                    arity(p, 1, 1, "invalidateblock \"blockhash\"");
                    yield invalidate(p, true);
                }
                case "reconsiderblock" -> {
                    arity(p, 1, 1, "reconsiderblock \"blockhash\"");
                    yield invalidate(p, false);
                }
                case "getrawmempool" -> rawMempool(p);
                case "getmempoolinfo" -> {
                    arity(p, 0, 0, "getmempoolinfo");
                    yield mempoolInfo();
                }
                case "estimatesmartfee" -> estimateSmartFee(p);
                case "getnetworkinfo" -> {
                    arity(p, 0, 0, "getnetworkinfo");
                    yield networkInfo();
                }
                case "uptime" -> {
                    arity(p, 0, 0, "uptime");
                    yield NODES.numberNode((System.currentTimeMillis() - startedMillis) / 1000);
                }
                case "stop" -> {
                    arity(p, 0, 0, "stop");
                    stopRequested.set(true);
                    yield NODES.textNode("blockfilter embedded node stopping");
                }
                default -> throw new RpcError(RpcError.METHOD_NOT_FOUND, "Method not found");
            };
        }
    }

    // ---------------------------------------------------------------- chain

    private JsonNode blockchainInfo() {
        BlockEntry tip = chain.tip();
        ObjectNode o = NODES.objectNode();
        o.put("chain", "regtest");
        o.put("blocks", tip.height());
        o.put("headers", tip.height());
        o.put("bestblockhash", tip.hash().toString());
        o.put("bits", bits(tip));
        o.put("target", target(tip));
        o.put("difficulty", difficulty(tip));
        o.put("time", tip.block().getTimeSeconds());
        o.put("mediantime", Chain.medianTimePast(tip));
        o.put("verificationprogress", 1);
        o.put("initialblockdownload", false);
        o.put("chainwork", work(tip));
        o.put("size_on_disk", 0);
        o.put("pruned", false);
        o.put("warnings", "");
        return o;
    }

    private JsonNode blockHash(ArrayNode p) {
        arity(p, 1, 1, "getblockhash height");
        int height = intParam(p, 0);
        return chain.atHeight(height)
                .map(e -> text(e.hash()))
                .orElseThrow(() -> new RpcError(RpcError.INVALID_PARAMETER, "Block height out of range"));
    }

    private JsonNode block(ArrayNode p) {
        arity(p, 1, 2, "getblock \"blockhash\" ( verbosity )");
        BlockEntry e = entry(hashParam(p, 0, "blockhash"));
        int verbosity = 1;
        if (p.size() > 1 && !p.get(1).isNull()) {
            JsonNode v = p.get(1);
            verbosity = v.isBoolean() ? (v.asBoolean() ? 1 : 0) : intParam(p, 1);
        }
        if (verbosity <= 0) {
            return NODES.textNode(HEX.formatHex(e.raw()));
        }
        ObjectNode o = header(e);
        Block b = e.block();
        long weight = BlockChecks.weight(b);
        o.put("size", e.rawSize());
        o.put("strippedsize", (weight - e.rawSize()) / 3);
        o.put("weight", weight);
        ArrayNode txs = o.putArray("tx");
        for (Transaction tx : b.getTransactions()) {
            if (verbosity == 1) {
                txs.add(tx.getTxId().toString());
            } else {
                txs.add(TxJson.decode(tx));
            }
        }
        return o;
    }

    private JsonNode blockHeader(ArrayNode p) {
        arity(p, 1, 2, "getblockheader \"blockhash\" ( verbose )");
        BlockEntry e = entry(hashParam(p, 0, "blockhash"));
        boolean verbose = p.size() < 2 || p.get(1).isNull() || boolParam(p, 1);
        if (!verbose) {
            byte[] raw = e.raw();
            return NODES.textNode(HEX.formatHex(raw, 0, Block.HEADER_SIZE));
        }
        return header(e);
    }

    private ObjectNode header(BlockEntry e) {
        Block b = e.block();
        ObjectNode o = NODES.objectNode();
        o.put("hash", e.hash().toString());
        o.put("confirmations", chain.onBestChain(e) ? chain.height() - e.height() + 1 : -1);
        o.put("height", e.height());
        o.put("version", b.getVersion());
        o.put("versionHex", String.format(Locale.ROOT, "%08x", b.getVersion()));
        o.put("merkleroot", b.getMerkleRoot().toString());
        o.put("time", b.getTimeSeconds());
        o.put("mediantime", Chain.medianTimePast(e));
        o.put("nonce", b.getNonce());
        o.put("bits", bits(e));
        o.put("target", target(e));
        o.put("difficulty", difficulty(e));
        o.put("chainwork", work(e));
        o.put("nTx", b.getTransactions() == null ? 0 : b.getTransactions().size());
        if (e.prev() != null) {
            o.put("previousblockhash", e.prev().hash().toString());
        }
        if (chain.onBestChain(e)) {
            chain.atHeight(e.height() + 1)
                    .ifPresent(next -> o.put("nextblockhash", next.hash().toString()));
        }
        return o;
    }

    private JsonNode chainTips() {
        List<BlockEntry> all = chain.allBlocks();
        Set<BlockEntry> parents = new HashSet<>();
        for (BlockEntry e : all) {
            if (e.prev() != null) {
                parents.add(e.prev());
            }
        }
        ArrayNode tips = NODES.arrayNode();
        for (BlockEntry e : all) {
            if (parents.contains(e) && e != chain.tip()) {
                continue; // not a tip (the active tip always is one, as in Core)
            }
            BlockEntry fork = e;
            while (!chain.onBestChain(fork)) {
                fork = fork.prev();
            }
            ObjectNode t = tips.addObject();
            t.put("height", e.height());
            t.put("hash", e.hash().toString());
            t.put("branchlen", e.height() - fork.height());
            t.put("status", chain.onBestChain(e) ? "active" : e.invalid() ? "invalid" : "valid-fork");
        }
        return tips;
    }

    private JsonNode invalidate(ArrayNode p, boolean invalidate) {
        Sha256Hash hash = hashParam(p, 0, "blockhash");
        entry(hash);
        try {
            if (invalidate) {
                chain.invalidate(hash);
            } else {
                chain.reconsider(hash);
            }
        } catch (IllegalArgumentException e) {
            throw new RpcError(RpcError.INVALID_PARAMETER, e.getMessage());
        }
        return NODES.nullNode();
    }

    // ---------------------------------------------------------------- transactions and mining

    private JsonNode rawTransaction(ArrayNode p) {
        arity(p, 1, 3, "getrawtransaction \"txid\" ( verbosity \"blockhash\" )");
        Sha256Hash txid = hashParam(p, 0, "parameter 1");
        boolean verbose = false;
        if (p.size() > 1 && !p.get(1).isNull()) {
            JsonNode v = p.get(1);
            verbose = v.isBoolean() ? v.asBoolean() : intParam(p, 1) > 0;
        }
        Transaction tx = null;
        BlockEntry in = null;
        if (p.size() > 2 && !p.get(2).isNull()) {
            BlockEntry given = chain.block(hashParam(p, 2, "parameter 3"))
                    .orElseThrow(() -> new RpcError(RpcError.INVALID_ADDRESS_OR_KEY, "Block hash not found"));
            for (Transaction t : given.block().getTransactions()) {
                if (t.getTxId().equals(txid)) {
                    tx = t;
                    in = given;
                }
            }
            if (tx == null) {
                throw new RpcError(RpcError.INVALID_ADDRESS_OR_KEY, "No such transaction found in the provided block.");
            }
        } else {
            Optional<Transaction> pooled = chain.mempoolTransaction(txid);
            if (pooled.isPresent()) {
                tx = pooled.get();
            } else {
                in = chain.confirmingBlock(txid)
                        .orElseThrow(
                                () -> new RpcError(
                                        RpcError.INVALID_ADDRESS_OR_KEY,
                                        "No such mempool or blockchain transaction. Use gettransaction for wallet transactions."));
                for (Transaction t : in.block().getTransactions()) {
                    if (t.getTxId().equals(txid)) {
                        tx = t;
                    }
                }
            }
        }
        if (!verbose) {
            return NODES.textNode(HEX.formatHex(tx.serialize()));
        }
        ObjectNode o = TxJson.decode(tx);
        if (in != null) {
            o.put("blockhash", in.hash().toString());
            o.put("confirmations", chain.onBestChain(in) ? chain.height() - in.height() + 1 : 0);
            o.put("time", in.block().getTimeSeconds());
            o.put("blocktime", in.block().getTimeSeconds());
        }
        return o;
    }

    private JsonNode sendRawTransaction(ArrayNode p) {
        arity(p, 1, 3, "sendrawtransaction \"hexstring\" ( maxfeerate maxburnamount )");
        byte[] raw = hexParam(p, 0, "TX decode failed. Make sure the tx has at least one input.");
        return text(chain.acceptToMempool(StrictWireDecoder.transaction(raw)));
    }

    private JsonNode submitBlock(ArrayNode p) {
        arity(p, 1, 2, "submitblock \"hexdata\" ( \"dummy\" )");
        byte[] raw = hexParam(p, 0, "Block decode failed");
        Block block = StrictWireDecoder.block(raw);
        try {
            return switch (chain.submitBlock(block, raw)) {
                case ACCEPTED -> NODES.nullNode();
                case DUPLICATE -> NODES.textNode("duplicate");
                case DUPLICATE_INVALID -> NODES.textNode("duplicate-invalid");
                case INCONCLUSIVE -> NODES.textNode("inconclusive");
            };
        } catch (RejectedException e) {
            // As Core: a rejected block is a result string, not an error.
            return NODES.textNode(e.reason());
        }
    }

    private JsonNode generateToAddress(ArrayNode p) {
        arity(p, 2, 3, "generatetoaddress nblocks \"address\" ( maxtries )");
        int n = intParam(p, 0);
        if (n < 0 || n > MAX_GENERATE) {
            throw new RpcError(RpcError.INVALID_PARAMETER, "nblocks must be in 0.." + MAX_GENERATE);
        }
        Address address;
        try {
            address = ADDRESSES.parseAddress(stringParam(p, 1));
        } catch (AddressFormatException e) {
            throw new RpcError(RpcError.INVALID_ADDRESS_OR_KEY, "Error: Invalid address");
        }
        ArrayNode hashes = NODES.arrayNode();
        for (Sha256Hash h :
                chain.mine(n, ScriptBuilder.createOutputScript(address).program())) {
            hashes.add(h.toString());
        }
        return hashes;
    }

    private JsonNode rawMempool(ArrayNode p) {
        arity(p, 0, 2, "getrawmempool ( verbose mempool_sequence )");
        boolean verbose = p.size() > 0 && !p.get(0).isNull() && boolParam(p, 0);
        List<Transaction> txs = chain.mempoolTransactions();
        if (!verbose) {
            ArrayNode a = NODES.arrayNode();
            txs.forEach(tx -> a.add(tx.getTxId().toString()));
            return a;
        }
        Set<Sha256Hash> pooled = new HashSet<>();
        txs.forEach(tx -> pooled.add(tx.getTxId()));
        ObjectNode o = NODES.objectNode();
        for (Transaction tx : txs) {
            Mempool.Entry entry = chain.mempoolEntry(tx.getTxId());
            ObjectNode t = o.putObject(tx.getTxId().toString());
            t.put("vsize", tx.getVsize());
            t.put("weight", tx.getWeight());
            t.put("time", entry.time());
            t.put("height", entry.height());
            t.putObject("fees").put("base", btc(entry.fee()));
            ArrayNode depends = t.putArray("depends");
            Set<Sha256Hash> seen = new HashSet<>();
            tx.getInputs().forEach(in -> {
                Sha256Hash parent = in.getOutpoint().hash();
                if (pooled.contains(parent) && seen.add(parent)) {
                    depends.add(parent.toString());
                }
            });
            t.put("wtxid", tx.getWTxId().toString());
        }
        return o;
    }

    private JsonNode mempoolInfo() {
        List<Transaction> txs = chain.mempoolTransactions();
        ObjectNode o = NODES.objectNode();
        o.put("loaded", true);
        o.put("size", txs.size());
        o.put("bytes", txs.stream().mapToLong(Transaction::getVsize).sum());
        o.put(
                "total_fee",
                btc(txs.stream()
                        .mapToLong(tx -> chain.mempoolFee(tx.getTxId()).orElse(0L))
                        .sum()));
        return o;
    }

    /** Core's estimator tracks targets up to this (LONG_BLOCK_PERIODS * LONG_SCALE, src/policy/fees.h). */
    private static final int MAX_FEE_TARGET = 1008;

    /**
     * {@code estimatesmartfee conf_target ( estimate_mode )} as Bitcoin Core answers it with no fee
     * history (src/rpc/fees.cpp, src/policy/fees.cpp): this node keeps none, so every valid target
     * gets {@code {"errors": ["Insufficient data or no feerate found"], "blocks": 0}} (the target is
     * clamped to the usable history, 0 blocks). Bad arguments get Core's errors.
     */
    private JsonNode estimateSmartFee(ArrayNode p) {
        arity(p, 1, 3, "estimatesmartfee conf_target ( \"estimate_mode\" satvB )");
        int target = intParam(p, 0);
        if (target < 1 || target > MAX_FEE_TARGET) {
            throw new RpcError(
                    RpcError.INVALID_PARAMETER, "Invalid conf_target, must be between 1 and " + MAX_FEE_TARGET);
        }
        if (p.size() > 1 && !p.get(1).isNull()) {
            if (!p.get(1).isTextual()) {
                throw new RpcError(
                        RpcError.TYPE_ERROR,
                        "JSON value of type " + typeName(p.get(1)) + " is not of expected type string");
            }
            String mode = p.get(1).asText().toLowerCase(Locale.ROOT);
            if (!List.of("unset", "economical", "conservative").contains(mode)) {
                throw new RpcError(
                        RpcError.INVALID_PARAMETER,
                        "Invalid estimate_mode parameter, must be one of: \"unset\", \"economical\", \"conservative\"");
            }
        }
        ObjectNode o = NODES.objectNode();
        o.putArray("errors").add("Insufficient data or no feerate found");
        o.put("blocks", 0);
        return o;
    }

    private JsonNode networkInfo() {
        ObjectNode o = NODES.objectNode();
        o.put("version", 0);
        o.put("subversion", "/blockfilter-embedded:0.1.0/");
        o.put("protocolversion", 70016);
        o.put("connections", 0);
        o.put("networkactive", false);
        o.putArray("networks");
        o.put("relayfee", btc(0));
        o.put("warnings", "");
        return o;
    }

    // ---------------------------------------------------------------- helpers

    private BlockEntry entry(Sha256Hash hash) {
        return chain.block(hash).orElseThrow(() -> new RpcError(RpcError.INVALID_ADDRESS_OR_KEY, "Block not found"));
    }

    private static JsonNode text(Sha256Hash hash) {
        return NODES.textNode(hash.toString());
    }

    static BigDecimal btc(long sats) {
        return BigDecimal.valueOf(sats, 8);
    }

    private static String bits(BlockEntry e) {
        return String.format(Locale.ROOT, "%08x", e.block().getDifficultyTarget());
    }

    private static String target(BlockEntry e) {
        return String.format(Locale.ROOT, "%064x", e.block().getDifficultyTargetAsInteger());
    }

    private static String work(BlockEntry e) {
        return String.format(Locale.ROOT, "%064x", e.chainWork());
    }

    /** Core's GetDifficulty: the difficulty-1 target over this target, computed the same way in doubles. */
    static double difficulty(BlockEntry e) {
        long bits = e.block().getDifficultyTarget();
        int shift = (int) ((bits >> 24) & 0xff);
        double diff = (double) 0x0000ffff / (double) (bits & 0x00ffffff);
        while (shift < 29) {
            diff *= 256.0;
            shift++;
        }
        while (shift > 29) {
            diff /= 256.0;
            shift--;
        }
        return diff;
    }

    private static void arity(ArrayNode p, int min, int max, String usage) {
        if (p.size() < min || p.size() > max) {
            throw new RpcError(RpcError.MISC_ERROR, usage);
        }
    }

    private static int intParam(ArrayNode p, int i) {
        JsonNode v = p.get(i);
        if (!v.isNumber()) {
            throw new RpcError(
                    RpcError.TYPE_ERROR, "JSON value of type " + typeName(v) + " is not of expected type number");
        }
        if (!v.canConvertToInt() || (v.isFloatingPointNumber() && v.asDouble() != Math.rint(v.asDouble()))) {
            throw new RpcError(RpcError.TYPE_ERROR, "JSON integer out of range");
        }
        return v.asInt();
    }

    private static boolean boolParam(ArrayNode p, int i) {
        JsonNode v = p.get(i);
        if (v.isBoolean()) {
            return v.asBoolean();
        }
        if (v.isNumber()) {
            return v.asInt() != 0;
        }
        throw new RpcError(RpcError.TYPE_ERROR, "JSON value of type " + typeName(v) + " is not of expected type bool");
    }

    private static String stringParam(ArrayNode p, int i) {
        JsonNode v = p.get(i);
        if (!v.isTextual()) {
            throw new RpcError(
                    RpcError.TYPE_ERROR, "JSON value of type " + typeName(v) + " is not of expected type string");
        }
        return v.asText();
    }

    private static Sha256Hash hashParam(ArrayNode p, int i, String name) {
        String s = stringParam(p, i);
        if (s.length() != 64) {
            throw new RpcError(
                    RpcError.INVALID_PARAMETER,
                    name + " must be of length 64 (not " + s.length() + ", for '" + s + "')");
        }
        if (!s.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new RpcError(RpcError.INVALID_PARAMETER, name + " must be hexadecimal string (not '" + s + "')");
        }
        return Sha256Hash.wrap(s);
    }

    private static byte[] hexParam(ArrayNode p, int i, String decodeFailure) {
        String s = stringParam(p, i);
        try {
            return HEX.parseHex(s);
        } catch (IllegalArgumentException e) {
            throw new RpcError(RpcError.DESERIALIZATION_ERROR, decodeFailure);
        }
    }

    private static String typeName(JsonNode v) {
        return switch (v.getNodeType()) {
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "bool";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> "null";
        };
    }
}
