package org.blockfilter.regtest.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.RegtestNodeException;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;

/**
 * A {@link RegtestNode} reached over Core-dialect JSON-RPC: everything btcd and Bitcoin Core have
 * in common. Subclasses start and stop the node, say how to mine, and supply the log tail that
 * every failure message ends with. Thread-safe (the RPC client is).
 */
public abstract class RpcNode implements RegtestNode {
    private static final HexFormat HEX = HexFormat.of();
    private static final int MTP_SPAN = 11;

    private final BitcoinRpc rpc;
    private final Address miningAddress;
    private final AtomicInteger branches = new AtomicInteger();

    protected RpcNode(JsonRpcClient client, Address miningAddress) {
        this.rpc = new BitcoinRpc(Objects.requireNonNull(client, "client"));
        this.miningAddress = Objects.requireNonNull(miningAddress, "miningAddress");
    }

    /** The last lines of the node's log (or a note that there is none). */
    public abstract String logTail();

    /** Mines {@code count} blocks with the node's own miner; at most a few dozen per call. */
    protected abstract List<Sha256Hash> mineBatch(int count);

    /** The raw JSON-RPC client, for calls this interface does not cover (e.g. getcfilter). */
    public JsonRpcClient rpcClient() {
        return rpc.client();
    }

    @Override
    public Address miningAddress() {
        return miningAddress;
    }

    @Override
    public int tipHeight() {
        return guarded("getblockcount", rpc::blockCount);
    }

    @Override
    public Sha256Hash tipHash() {
        return guarded("getbestblockhash", rpc::bestBlockHash);
    }

    @Override
    public Optional<Sha256Hash> blockHash(int height) {
        if (height < 0) {
            throw new IllegalArgumentException("height must be >= 0: " + height);
        }
        return guarded("getblockhash " + height, () -> rpc.blockHash(height));
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        Objects.requireNonNull(hash, "hash");
        return guarded("getblock " + hash, () -> rpc.rawBlock(hash));
    }

    @Override
    public Sha256Hash submitTransaction(byte[] rawTx) {
        Objects.requireNonNull(rawTx, "rawTx");
        return guarded("sendrawtransaction", () -> rpc.sendRawTransaction(rawTx));
    }

    @Override
    public List<Sha256Hash> mempool() {
        return guarded("getrawmempool", () -> {
            List<Sha256Hash> txids = new ArrayList<>();
            for (JsonNode txid : rpc.client().call("getrawmempool")) {
                txids.add(Sha256Hash.wrap(txid.asText()));
            }
            return txids;
        });
    }

    @Override
    public List<Sha256Hash> mine(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
        List<Sha256Hash> hashes = new ArrayList<>(count);
        while (hashes.size() < count) {
            int batch = Math.min(25, count - hashes.size());
            hashes.addAll(guarded("mine " + batch, () -> mineBatch(batch)));
        }
        return hashes;
    }

    @Override
    public void submitBlock(byte[] rawBlock) {
        Objects.requireNonNull(rawBlock, "rawBlock");
        JsonNode result = guarded("submitblock", () -> rpc.client().call("submitblock", HEX.formatHex(rawBlock)));
        // Both nodes answer null on success. Bitcoin Core answers a BIP 22 reason string on
        // rejection, "inconclusive" for a valid block off the best chain (the first blocks of a
        // competing branch) and "duplicate" for a block it already has: neither is a rejection.
        String answer = result.isNull() ? "" : result.asText();
        if (!answer.isEmpty() && !answer.equals("inconclusive") && !answer.equals("duplicate")) {
            throw new RegtestNodeException(name() + " rejected the block: " + answer, logTail(), null);
        }
    }

    @Override
    public List<Sha256Hash> reorg(int depth, int newBlocks) {
        int tip = tipHeight();
        if (depth < 1 || depth > tip) {
            throw new IllegalArgumentException("reorg depth must be in 1.." + tip + ": " + depth);
        }
        if (newBlocks <= depth) {
            throw new IllegalArgumentException(
                    "a reorg needs more new blocks than it drops: " + newBlocks + " <= " + depth);
        }
        int forkHeight = tip - depth;
        Sha256Hash parent = blockHash(forkHeight).orElseThrow();
        long time = Math.max(Instant.now().getEpochSecond(), maxRecentTime(parent) + 1);
        List<Sha256Hash> branch = new ArrayList<>(newBlocks);
        for (int i = 1; i <= newBlocks; i++) {
            Block block = BranchBuilder.coinbaseOnly(
                    parent, forkHeight + i, Instant.ofEpochSecond(time + i), miningAddress, branches.incrementAndGet());
            submitBlock(block.serialize());
            parent = block.getHash();
            branch.add(parent);
        }
        Sha256Hash newTip = tipHash();
        if (!newTip.equals(parent)) {
            throw new RegtestNodeException(
                    name() + " did not switch to the longer branch: tip " + newTip + ", branch ends at " + parent,
                    logTail(),
                    null);
        }
        return branch;
    }

    /** The highest timestamp among {@code hash} and its 10 ancestors, which bounds their median time. */
    private long maxRecentTime(Sha256Hash hash) {
        long max = 0;
        Sha256Hash cursor = hash;
        for (int i = 0; i < MTP_SPAN && !cursor.equals(Sha256Hash.ZERO_HASH); i++) {
            Sha256Hash at = cursor;
            byte[] header = HEX.parseHex(guarded(
                            "getblockheader " + at, () -> rpc.client().call("getblockheader", at.toString(), false))
                    .asText());
            ByteBuffer buf = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
            max = Math.max(max, Integer.toUnsignedLong(buf.getInt(68)));
            byte[] prev = new byte[32];
            buf.position(4);
            buf.get(prev);
            cursor = Sha256Hash.wrapReversed(prev);
        }
        return max;
    }

    /** Runs an RPC and turns its failure into a {@link RegtestNodeException} carrying the node's log. */
    protected final <T> T guarded(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (RpcException e) {
            throw new RegtestNodeException(name() + ": " + what + " failed: " + e.getMessage(), logTail(), e);
        }
    }

    @Override
    public String toString() {
        return name() + "@" + rpcUri();
    }
}
