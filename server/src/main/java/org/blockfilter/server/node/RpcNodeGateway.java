package org.blockfilter.server.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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
    private final Map<Integer, CachedFee> fees = new ConcurrentHashMap<>();

    private record CachedHeight(int height, long atNanos) {}

    private record CachedFee(String source, FeeEstimates.Estimate estimate, long atNanos) {}

    /**
     * How long a fee estimate is reused: estimates change once per block, and without a cache each
     * request to the fee route would cost the node one RPC per target.
     */
    private static final long FEE_TTL_NANOS = Duration.ofSeconds(10).toNanos();

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

    /**
     * Asks {@code estimatesmartfee} (Bitcoin Core, our embedded node) and, when the node does not
     * have that method, btcd's {@code estimatefee}; a node with neither gives source {@code none}.
     */
    @Override
    public FeeEstimates feeEstimates(List<Integer> targets) {
        String source = null;
        List<FeeEstimates.Estimate> out = new ArrayList<>();
        long now = System.nanoTime();
        for (int target : targets) {
            CachedFee cached = fees.get(target);
            if (cached == null || now - cached.atNanos() >= FEE_TTL_NANOS) {
                cached = askFee(target, now);
                fees.put(target, cached);
            }
            source = source == null || source.equals(FeeEstimates.NONE) ? cached.source() : source;
            out.add(cached.estimate());
        }
        return new FeeEstimates(source == null ? FeeEstimates.NONE : source, out);
    }

    private CachedFee askFee(int target, long now) {
        try {
            return new CachedFee(FeeEstimates.SMART, estimate(rpc.smartFee(target)), now);
        } catch (RpcException e) {
            if (e.isTransportError()) {
                throw unavailable(e);
            }
            if (e.code() != RpcException.METHOD_NOT_FOUND) {
                return new CachedFee(
                        FeeEstimates.SMART, new FeeEstimates.Estimate(target, null, null, e.getMessage()), now);
            }
        }
        try {
            return new CachedFee(FeeEstimates.BTCD, estimate(rpc.estimateFee(target)), now);
        } catch (RpcException e) {
            if (e.isTransportError() || e.code() != RpcException.METHOD_NOT_FOUND) {
                throw unavailable(e);
            }
        }
        return new CachedFee(
                FeeEstimates.NONE,
                new FeeEstimates.Estimate(target, null, null, "the node has neither estimatesmartfee nor estimatefee"),
                now);
    }

    private static FeeEstimates.Estimate estimate(BitcoinRpc.FeeRate r) {
        return new FeeEstimates.Estimate(r.target(), r.satPerVByte(), r.blocks(), r.error());
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
