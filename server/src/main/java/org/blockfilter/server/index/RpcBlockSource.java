package org.blockfilter.server.index;

import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.rpc.BitcoinRpc;

/**
 * A {@link BlockSource} over a node's JSON-RPC ({@code getbestblockhash}, {@code getblockcount},
 * {@code getblockhash}, {@code getblock hash 0}): Bitcoin Core, btcd or the embedded node.
 * Immutable and thread-safe.
 */
public final class RpcBlockSource implements BlockSource {
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
}
