package org.blockfilter.server.node;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.RpcException;

/**
 * {@link NodeGateway} over the node's JSON-RPC ({@link BitcoinRpc}). The node height is cached for
 * a short time so that status requests and metric scrapes do not each cost an RPC round trip.
 * Thread-safe.
 */
public final class RpcNodeGateway implements NodeGateway {
    private final BitcoinRpc rpc;
    private final long heightTtlNanos;
    private final AtomicReference<CachedHeight> height = new AtomicReference<>();

    private record CachedHeight(int height, long atNanos) {}

    public RpcNodeGateway(BitcoinRpc rpc, Duration heightCacheTtl) {
        this.rpc = Objects.requireNonNull(rpc, "rpc");
        this.heightTtlNanos = heightCacheTtl.toNanos();
    }

    public RpcNodeGateway(BitcoinRpc rpc) {
        this(rpc, Duration.ofSeconds(1));
    }

    @Override
    public int nodeHeight() {
        long now = System.nanoTime();
        CachedHeight cached = height.get();
        if (cached != null && now - cached.atNanos() < heightTtlNanos) {
            return cached.height();
        }
        int h = call(rpc::blockCount);
        height.set(new CachedHeight(h, now));
        return h;
    }

    @Override
    public boolean hasBlock(Sha256Hash blockHash) {
        try {
            return rpc.blockHeader(blockHash).isPresent();
        } catch (RpcException e) {
            throw unavailable(e);
        }
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash blockHash) {
        return call(() -> rpc.rawBlock(blockHash));
    }

    @Override
    public Sha256Hash relay(byte[] rawTx) {
        try {
            return rpc.sendRawTransaction(rawTx);
        } catch (RpcException e) {
            if (e.isTransportError()) {
                throw unavailable(e);
            }
            throw new NodeException(NodeException.Kind.REJECTED, e.getMessage(), e);
        }
    }

    private static <T> T call(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RpcException e) {
            throw unavailable(e);
        }
    }

    private static NodeException unavailable(RpcException e) {
        return new NodeException(NodeException.Kind.UNAVAILABLE, "node unavailable: " + e.getMessage(), e);
    }
}
