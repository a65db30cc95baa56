package org.blockfilter.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;

/**
 * The typed subset of Bitcoin Core's RPC that the server needs from a node: chain tip, block
 * hashes by height, raw blocks, and transaction relay. Works against Bitcoin Core, btcd and the
 * embedded regtest node. Immutable and thread-safe; no method returns null.
 */
public final class BitcoinRpc {
    private static final HexFormat HEX = HexFormat.of();

    private final JsonRpcClient client;

    public BitcoinRpc(JsonRpcClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    public JsonRpcClient client() {
        return client;
    }

    /** {@code getblockcount}: height of the node's best chain. */
    public int blockCount() {
        return client.call("getblockcount").asInt();
    }

    /** {@code getbestblockhash}. */
    public Sha256Hash bestBlockHash() {
        return Sha256Hash.wrap(client.call("getbestblockhash").asText());
    }

    /** {@code getblockchaininfo}, as the node returns it (the chain name is in {@code chain}). */
    public JsonNode blockchainInfo() {
        return client.call("getblockchaininfo");
    }

    /**
     * {@code getblockhash height}; empty if the height is above the node's tip.
     *
     * @throws RpcException for any other failure
     */
    public Optional<Sha256Hash> blockHash(int height) {
        try {
            return Optional.of(
                    Sha256Hash.wrap(client.call("getblockhash", height).asText()));
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
            return Optional.of(
                    HEX.parseHex(client.call("getblock", hash.toString(), 0).asText()));
        } catch (RpcException e) {
            if (e.code() == RpcException.INVALID_ADDRESS_OR_KEY) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** {@code sendrawtransaction hex}: relays a transaction and returns its txid. */
    public Sha256Hash sendRawTransaction(byte[] rawTx) {
        return Sha256Hash.wrap(
                client.call("sendrawtransaction", HEX.formatHex(rawTx)).asText());
    }
}
