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
 * A relayed transaction counts as accepted only once the node holds it ({@code getrawtransaction}
 * finds it), because bcoin's {@code sendrawtransaction} answers the txid before it validates.
 * Thread-safe.
 */
public final class RpcNodeGateway implements NodeGateway {
    private final BitcoinRpc rpc;
    private final long heightTtlNanos;
    private final long acceptWaitNanos;
    private final AtomicReference<CachedHeight> height = new AtomicReference<>();

    private record CachedHeight(int height, long atNanos) {}

    /**
     * @param acceptWait how long a relayed transaction may take to appear in the node's mempool
     *     (bcoin validates after answering {@code sendrawtransaction}; Core and btcd before)
     */
    public RpcNodeGateway(BitcoinRpc rpc, Duration heightCacheTtl, Duration acceptWait) {
        this.rpc = Objects.requireNonNull(rpc, "rpc");
        this.heightTtlNanos = heightCacheTtl.toNanos();
        this.acceptWaitNanos = acceptWait.toNanos();
    }

    public RpcNodeGateway(BitcoinRpc rpc, Duration heightCacheTtl) {
        this(rpc, heightCacheTtl, DEFAULT_ACCEPT_WAIT);
    }

    public RpcNodeGateway(BitcoinRpc rpc) {
        this(rpc, Duration.ofSeconds(1));
    }

    /** How long {@link #relay} waits for a transaction the node answered to appear in its mempool. */
    public static final Duration DEFAULT_ACCEPT_WAIT = Duration.ofSeconds(5);

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

    /**
     * {@code sendrawtransaction}, then {@code getrawtransaction} until the node holds the
     * transaction or the accept wait has passed: a node that answered the txid but does not hold
     * it refused the transaction after answering (REJECTED, with the node's last word).
     */
    @Override
    public Sha256Hash relay(byte[] rawTx) {
        Sha256Hash txid;
        try {
            txid = rpc.sendRawTransaction(rawTx);
        } catch (RpcException e) {
            if (e.isTransportError()) {
                throw unavailable(e);
            }
            throw new NodeException(NodeException.Kind.REJECTED, e.getMessage(), e);
        }
        long deadline = System.nanoTime() + acceptWaitNanos;
        long pauseMillis = 10;
        while (true) {
            try {
                rpc.rawTransaction(txid);
                return txid;
            } catch (RpcException e) {
                if (e.isTransportError()) {
                    throw unavailable(e);
                }
                if (System.nanoTime() + pauseMillis * 1_000_000 > deadline) {
                    throw new NodeException(
                            NodeException.Kind.REJECTED,
                            "the node answered sendrawtransaction with " + txid + " but does not hold it "
                                    + Duration.ofNanos(acceptWaitNanos).toMillis()
                                    + " ms later (it refused the transaction after answering): " + e.getMessage(),
                            e);
                }
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new NodeException(NodeException.Kind.UNAVAILABLE, "interrupted waiting for the node", ie);
            }
            pauseMillis = Math.min(pauseMillis * 2, 250);
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
