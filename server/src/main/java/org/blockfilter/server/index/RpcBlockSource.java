package org.blockfilter.server.index;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.rpc.VerboseBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BlockSource} over a node's JSON-RPC ({@code getbestblockhash}, {@code getblockcount},
 * {@code getblockhash}, {@code getblock hash 0}): Bitcoin Core, btcd or the embedded node.
 * Where the node offers {@code getblock hash 3} with prevouts (Bitcoin Core >= 23), {@link
 * #blockWithPrevouts} uses it. Thread-safe.
 */
public final class RpcBlockSource implements BlockSource {
    private static final Logger LOG = LoggerFactory.getLogger(RpcBlockSource.class);
    /** How many blocks back from the tip the probe looks for one that spends something. */
    private static final int PROBE_DEPTH = 20;

    private final BitcoinRpc rpc;

    public RpcBlockSource(BitcoinRpc rpc) {
        this.rpc = Objects.requireNonNull(rpc, "rpc");
    }

    @Override
    public Sha256Hash bestBlockHash() {
        return rpc.bestBlockHash();
    }

    @Override
    public int bestHeight() {
        return rpc.blockCount();
    }

    @Override
    public Optional<Sha256Hash> hashAt(int height) {
        return rpc.blockHash(height);
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        return rpc.rawBlock(hash);
    }

    @Override
    public Optional<byte[]> header(Sha256Hash hash) {
        return rpc.blockHeader(hash);
    }

    /**
     * Asks {@code getblock hash 3} for the newest block (of the last {@value #PROBE_DEPTH}) that
     * spends an output: true if the node reports every prevout script. An error answer, an answer
     * without prevouts, or no such block in reach is false.
     *
     * @throws RpcException if the node cannot be reached
     */
    @Override
    public boolean offersPrevouts() {
        Sha256Hash hash = rpc.bestBlockHash();
        for (int i = 0; i < PROBE_DEPTH; i++) {
            Optional<VerboseBlock> answer;
            try {
                answer = rpc.verboseBlock(hash);
            } catch (RpcException e) {
                if (e.isTransportError() && !e.getMessage().contains("invalid answer")) {
                    throw e;
                }
                LOG.info("event=prevout_probe verbosity3=refused error=\"{}\"", e.getMessage());
                return false;
            }
            if (answer.isEmpty()) {
                return false;
            }
            VerboseBlock b = answer.get();
            if (b.conclusive()) {
                LOG.info(
                        "event=prevout_probe verbosity3={} block={} tx_hex={}",
                        b.prevoutsComplete() ? "prevouts" : "no_prevouts",
                        hash,
                        b.raw().length > 0);
                return b.prevoutsComplete();
            }
            if (b.prevBlockHash().equals(Sha256Hash.ZERO_HASH)) {
                break;
            }
            hash = b.prevBlockHash();
        }
        LOG.info("event=prevout_probe verbosity3=inconclusive reason=no_spending_block_in_reach");
        return false;
    }

    /**
     * The block from {@code getblock hash 3}. A block the node answers without every prevout
     * gets an empty script list (the indexer reads its prevouts from its own map), one without
     * transaction hex is fetched again raw.
     */
    @Override
    public Optional<BlockWithPrevouts> blockWithPrevouts(Sha256Hash hash) {
        Optional<VerboseBlock> answer = rpc.verboseBlock(hash);
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        VerboseBlock b = answer.get();
        byte[] raw = b.raw();
        if (raw.length == 0) {
            Optional<byte[]> plain = rpc.rawBlock(hash);
            if (plain.isEmpty()) {
                return Optional.empty();
            }
            raw = plain.get();
        }
        return Optional.of(new BlockWithPrevouts(raw, b.prevoutsComplete() ? b.prevoutScripts() : List.of()));
    }
}
