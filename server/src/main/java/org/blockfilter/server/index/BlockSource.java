package org.blockfilter.server.index;

import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;

/**
 * Where the indexer reads the chain from: the node's best chain by height and raw blocks by
 * hash. {@link RpcBlockSource} implements it over JSON-RPC; tests may feed blocks built with
 * bitcoinj. Implementations are thread-safe and never return null; failures to reach the node
 * are unchecked exceptions (for RPC, {@link org.blockfilter.server.rpc.RpcException}).
 */
public interface BlockSource {

    /** Hash of the node's best block. */
    Sha256Hash bestBlockHash();

    /** Height of the node's best block. */
    int bestHeight();

    /** Best-chain block hash at {@code height}; empty above the node's tip. */
    Optional<Sha256Hash> hashAt(int height);

    /** The block's wire serialization (with witnesses); empty if the node does not know it. */
    Optional<byte[]> rawBlock(Sha256Hash hash);

    /** The block's 80-byte header, unchecked; empty if the node does not know it. */
    default Optional<byte[]> header(Sha256Hash hash) {
        return rawBlock(hash)
                .map(raw -> java.util.Arrays.copyOf(raw, Math.min(raw.length, 80)))
                .filter(h -> h.length == 80);
    }

    /**
     * Whether {@link #blockWithPrevouts} works: the node reports the scripts a block spends
     * (Bitcoin Core >= 23, {@code getblock hash 3}). Asked once per indexer pass.
     */
    default boolean offersPrevouts() {
        return false;
    }

    /**
     * The block with the scripts of the outputs it spends; empty if the node does not know it. A
     * block without them has an empty script list (the indexer then reads its prevouts from its
     * own map): what a source that does not {@link #offersPrevouts() offer prevouts} returns.
     */
    default Optional<BlockWithPrevouts> blockWithPrevouts(Sha256Hash hash) {
        return rawBlock(hash).map(raw -> new BlockWithPrevouts(raw, List.of()));
    }
}
