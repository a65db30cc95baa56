package org.blockfilter.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.bitcoinj.base.Sha256Hash;

/**
 * The typed subset of Bitcoin Core's RPC that the server needs from a node: chain tip, block
 * hashes by height, raw blocks, transaction relay and fee estimates. Works against Bitcoin Core, btcd and the
 * embedded regtest node. Every answer is checked for the type and shape of the fields used; one
 * that does not fit is an {@link RpcException} naming the call and the field. Immutable and
 * thread-safe; no method returns null.
 */
public final class BitcoinRpc {
    private static final HexFormat HEX = HexFormat.of();
    /** Core says main, test, testnet4, signet, regtest; btcd mainnet, testnet3, simnet, ... */
    private static final Pattern CHAIN_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,32}");

    private final JsonRpcClient client;

    public BitcoinRpc(JsonRpcClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    public JsonRpcClient client() {
        return client;
    }

    /** {@code getblockcount}: height of the node's best chain. */
    public int blockCount() {
        return RpcAnswers.nonNegativeInt("getblockcount", "result", client.call("getblockcount"));
    }

    /** {@code getbestblockhash}. */
    public Sha256Hash bestBlockHash() {
        return RpcAnswers.hash("getbestblockhash", "result", client.call("getbestblockhash"));
    }

    /** {@code getblockchaininfo}, as the node returns it (an object; the chain name is in {@code chain}). */
    public JsonNode blockchainInfo() {
        return RpcAnswers.object("getblockchaininfo", "result", client.call("getblockchaininfo"));
    }

    /** The {@code chain} field of {@code getblockchaininfo}: "main", "regtest", ... */
    public String chainName() {
        return RpcAnswers.text(
                "getblockchaininfo",
                "result.chain",
                blockchainInfo().get("chain"),
                CHAIN_NAME,
                "a chain name (1-32 letters, digits, '_', '.', '-')");
    }

    /**
     * {@code getblockhash height}; empty if the height is above the node's tip.
     *
     * @throws RpcException for any other failure
     */
    public Optional<Sha256Hash> blockHash(int height) {
        try {
            return Optional.of(RpcAnswers.hash("getblockhash", "result", client.call("getblockhash", height)));
        } catch (RpcException e) {
            if (e.code() == RpcException.INVALID_PARAMETER || e.code() == -1) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * {@code getblock hash 0}: the block's wire serialization, with witnesses; empty if the
     * node does not know the block.
     */
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        try {
            return Optional.of(RpcAnswers.hex("getblock", "result", client.call("getblock", hash.toString(), 0)));
        } catch (RpcException e) {
            if (e.code() == RpcException.INVALID_ADDRESS_OR_KEY) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * The largest {@code getblock hash 3} answer read. Core's JSON for a block is ~5-8x its raw
     * size (hex of every transaction, and per input its prevout with script, address and
     * descriptor); 64 MB covers a 4 MB block. The answer is streamed, never held as a tree.
     */
    public static final int MAX_VERBOSE_BLOCK_BYTES = 64 << 20;

    /**
     * {@code getblock hash 3}: the block with the scripts of the outputs it spends (Bitcoin Core
     * >= 23); empty if the node does not know the block. Other nodes answer as for verbosity 2,
     * which {@link VerboseBlock#prevoutsComplete()} shows.
     */
    public Optional<VerboseBlock> verboseBlock(Sha256Hash hash) {
        try {
            return Optional.of(
                    client.call("getblock", MAX_VERBOSE_BLOCK_BYTES, VerboseBlock::read, hash.toString(), 3));
        } catch (RpcException e) {
            if (e.code() == RpcException.INVALID_ADDRESS_OR_KEY) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * {@code getblockheader hash false}: the block's 80-byte header; empty if the node does not
     * know the block (any error object but a transport failure counts as unknown, as nodes differ
     * in the code they use).
     */
    public Optional<byte[]> blockHeader(Sha256Hash hash) {
        JsonNode result;
        try {
            result = client.call("getblockheader", hash.toString(), false);
        } catch (RpcException e) {
            if (e.isTransportError()) {
                throw e;
            }
            return Optional.empty();
        }
        byte[] header = RpcAnswers.hex("getblockheader", "result", result);
        if (header.length != 80) {
            throw RpcAnswers.invalid("getblockheader", "result", "80 bytes of hex", result);
        }
        return Optional.of(header);
    }

    /**
     * {@code getrawtransaction txid}: the transaction if the node holds it. Core, btcd and bcoin
     * all look in their mempool first (and in blocks only with a transaction index), so this
     * says whether a transaction just relayed is in the node's mempool. btcd does not implement
     * {@code getmempoolentry}, hence this call.
     */
    public byte[] rawTransaction(Sha256Hash txid) {
        return RpcAnswers.hex("getrawtransaction", "result", client.call("getrawtransaction", txid.toString()));
    }

    /**
     * {@code sendrawtransaction hex}: relays a transaction and returns its txid. Core and btcd
     * answer after validating it; bcoin answers the txid first and validates afterwards.
     */
    public Sha256Hash sendRawTransaction(byte[] rawTx) {
        return RpcAnswers.hash("sendrawtransaction", "result", client.call("sendrawtransaction", HEX.formatHex(rawTx)));
    }

    /** BTC per 1000 (v)bytes to sat/vB. */
    private static final double SAT_PER_VB_PER_BTC_PER_KVB = 100_000.0;

    /**
     * A fee-rate answer for one confirmation target: {@code satPerVByte} (null when the node has
     * no estimate), the {@code blocks} the node says it answered for (null when it does not say),
     * and the node's {@code error} text when it has no estimate.
     */
    public record FeeRate(int target, Double satPerVByte, Integer blocks, String error) {}

    /**
     * Bitcoin Core's {@code estimatesmartfee target}: {@code {"feerate": BTC/kvB, "blocks": n}}, or
     * {@code {"errors": [...], "blocks": n}} when it has no estimate (every regtest node without fee
     * history). btcd has no such method: it answers {@link RpcException#METHOD_NOT_FOUND}.
     */
    public FeeRate smartFee(int target) {
        JsonNode r = RpcAnswers.object("estimatesmartfee", "result", client.call("estimatesmartfee", target));
        JsonNode blocks = r.get("blocks");
        Integer b = blocks == null ? null : RpcAnswers.nonNegativeInt("estimatesmartfee", "result.blocks", blocks);
        JsonNode rate = r.get("feerate");
        if (rate != null) {
            double btcPerKvB = RpcAnswers.positiveNumber("estimatesmartfee", "result.feerate", rate);
            return new FeeRate(target, btcPerKvB * SAT_PER_VB_PER_BTC_PER_KVB, b, null);
        }
        JsonNode errors = r.get("errors");
        String why = errors != null
                        && errors.isArray()
                        && errors.size() > 0
                        && errors.get(0).isTextual()
                ? errors.get(0).asText()
                : "the node gave neither a feerate nor errors";
        return new FeeRate(target, null, b, RpcAnswers.shown(why));
    }

    /**
     * btcd's {@code estimatefee numblocks}: a bare number in BTC/kB, an error while btcd has seen
     * fewer than 3 blocks since it started, and 0 when it has seen no transactions confirm (no
     * estimate either). Core removed this method (it answers {@link RpcException#METHOD_NOT_FOUND}).
     */
    public FeeRate estimateFee(int target) {
        JsonNode r;
        try {
            r = client.call("estimatefee", target);
        } catch (RpcException e) {
            if (e.isTransportError() || e.code() == RpcException.METHOD_NOT_FOUND) {
                throw e;
            }
            return new FeeRate(target, null, null, RpcAnswers.shown(e.getMessage()));
        }
        if (r == null || !r.isNumber()) {
            throw RpcAnswers.invalid("estimatefee", "result", "a number (BTC/kB)", r);
        }
        double btcPerKb = r.asDouble();
        if (!(btcPerKb > 0) || Double.isInfinite(btcPerKb)) {
            return new FeeRate(target, null, null, "btcd has no estimate (answered " + r + ")");
        }
        return new FeeRate(target, btcPerKb * SAT_PER_VB_PER_BTC_PER_KVB, null, null);
    }
}
