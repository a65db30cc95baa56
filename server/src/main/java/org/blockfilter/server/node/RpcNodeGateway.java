package org.blockfilter.server.node;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.Transaction;
import org.blockfilter.server.index.Fault;
import org.blockfilter.server.index.NodeHealth;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.RpcException;

/**
 * {@link NodeGateway} over the node's JSON-RPC ({@link BitcoinRpc}). The node height is the last
 * one learned ({@link NodeHealth}, shared with the indexer), refreshed in the background once it
 * is older than the cache time, so that status requests and metric scrapes never wait for the
 * node; {@link #hasBlock} waits for the node at most {@link #QUICK_CALL}.
 * A relayed transaction counts as accepted only once the node holds it ({@code getrawtransaction}
 * finds it in the mempool, or a block the node added since finds it), because bcoin's {@code
 * sendrawtransaction} answers the txid before it validates.
 * Thread-safe.
 */
public final class RpcNodeGateway implements NodeGateway {
    private final BitcoinRpc rpc;
    private final long heightTtlNanos;
    private final long acceptWaitNanos;
    private final NodeHealth health;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final Map<Integer, CachedFee> fees = new ConcurrentHashMap<>();
    // Calls made for index reads: a few threads and a short queue, so a slow node cannot pile them up.
    private final ThreadPoolExecutor quick =
            new ThreadPoolExecutor(2, 4, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(64), RpcNodeGateway::daemon);

    /** How long an index read waits for the node (whether it knows a block) before answering 503. */
    public static final Duration QUICK_CALL = Duration.ofMillis(250);

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
    public RpcNodeGateway(BitcoinRpc rpc, Duration heightCacheTtl, Duration acceptWait, NodeHealth health) {
        this.rpc = Objects.requireNonNull(rpc, "rpc");
        this.health = Objects.requireNonNull(health, "health");
        this.heightTtlNanos = heightCacheTtl.toNanos();
        this.acceptWaitNanos = acceptWait.toNanos();
    }

    public RpcNodeGateway(BitcoinRpc rpc, Duration heightCacheTtl, Duration acceptWait) {
        this(rpc, heightCacheTtl, acceptWait, new NodeHealth());
    }

    public RpcNodeGateway(BitcoinRpc rpc, Duration heightCacheTtl) {
        this(rpc, heightCacheTtl, DEFAULT_ACCEPT_WAIT);
    }

    public RpcNodeGateway(BitcoinRpc rpc) {
        this(rpc, Duration.ofSeconds(1));
    }

    /** With the node facts shared with the indexer. */
    public RpcNodeGateway(BitcoinRpc rpc, NodeHealth health) {
        this(rpc, Duration.ofSeconds(1), DEFAULT_ACCEPT_WAIT, health);
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r, "node-gateway");
        t.setDaemon(true);
        return t;
    }

    @Override
    public Optional<NodeHealth> health() {
        return Optional.of(health);
    }

    /** How long {@link #relay} waits for a transaction the node answered to appear in its mempool. */
    public static final Duration DEFAULT_ACCEPT_WAIT = Duration.ofSeconds(5);

    /**
     * The last height learned from the node, never waiting for it: a height older than the cache
     * time is refreshed in the background; before the first answer, the first refresh is awaited
     * at most {@link #QUICK_CALL}.
     */
    @Override
    public int nodeHeight() {
        NodeHealth.Snapshot s = health.snapshot();
        Instant now = health.now();
        boolean fresh = s.nodeHeightAt()
                .map(at -> Duration.between(at, now).toNanos() < heightTtlNanos)
                .orElse(false);
        if (!fresh) {
            Future<?> refresh = refreshHeight();
            if (s.nodeHeight().isEmpty() && refresh != null) {
                quickly(refresh, "getblockcount");
            }
        }
        return health.snapshot()
                .nodeHeight()
                .orElseThrow(() -> new NodeException(
                        NodeException.Kind.UNAVAILABLE,
                        "node unavailable: it has not answered getblockcount yet",
                        null));
    }

    /** Starts one background getblockcount unless one runs; null if one runs or the queue is full. */
    private Future<?> refreshHeight() {
        if (!refreshing.compareAndSet(false, true)) {
            return null;
        }
        try {
            return quick.submit(() -> {
                try {
                    health.heightSeen(rpc.blockCount());
                } catch (RpcException e) {
                    health.failed(Fault.of(e));
                } finally {
                    refreshing.set(false);
                }
            });
        } catch (RejectedExecutionException e) {
            refreshing.set(false);
            return null;
        }
    }

    /** Whether the node knows the block, waiting for it at most {@link #QUICK_CALL}. */
    @Override
    public boolean hasBlock(Sha256Hash blockHash) {
        Future<Boolean> answer;
        try {
            answer = quick.submit(() -> rpc.blockHeader(blockHash).isPresent());
        } catch (RejectedExecutionException e) {
            throw new NodeException(NodeException.Kind.UNAVAILABLE, "node unavailable: too many calls waiting", e);
        }
        return quickly(answer, "getblockheader");
    }

    private static <T> T quickly(Future<T> answer, String method) {
        try {
            return answer.get(QUICK_CALL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new NodeException(
                    NodeException.Kind.UNAVAILABLE,
                    "node unavailable: it did not answer " + method + " within " + QUICK_CALL.toMillis() + " ms",
                    e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RpcException rpc) {
                throw unavailable(rpc);
            }
            throw new NodeException(NodeException.Kind.UNAVAILABLE, "node unavailable: " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NodeException(NodeException.Kind.UNAVAILABLE, "interrupted waiting for the node", e);
        }
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash blockHash) {
        return call(() -> rpc.rawBlock(blockHash));
    }

    /**
     * {@code sendrawtransaction}, then {@code getrawtransaction} until the node holds the
     * transaction or the accept wait has passed: a node that answered the txid but does not hold
     * it refused the transaction after answering (REJECTED, with the node's last word). Without a
     * transaction index {@code getrawtransaction} looks in the mempool only, so a transaction
     * that a block took out of the mempool meanwhile is looked for in the blocks added since.
     */
    @Override
    public Sha256Hash relay(byte[] rawTx) {
        int scanned = call(rpc::blockCount); // a block above this one may take the transaction from the mempool
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
                int tip = call(rpc::blockCount);
                for (; scanned < tip; scanned++) {
                    if (blockHolds(scanned + 1, txid)) {
                        return txid;
                    }
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

    /** Whether the node's block at {@code height} has the transaction; false if the chain is shorter now (reorg). */
    private boolean blockHolds(int height, Sha256Hash txid) {
        Optional<byte[]> raw = call(() -> rpc.blockHash(height).flatMap(rpc::rawBlock));
        if (raw.isEmpty()) {
            return false;
        }
        List<Transaction> txs;
        try {
            txs = Block.read(ByteBuffer.wrap(raw.get())).getTransactions();
        } catch (ProtocolException | BufferUnderflowException | IllegalArgumentException e) {
            throw notABlock(height, raw.get(), e);
        }
        if (txs == null) {
            throw notABlock(height, raw.get(), null); // a header alone
        }
        return txs.stream().anyMatch(t -> t.getTxId().equals(txid));
    }

    private static NodeException notABlock(int height, byte[] raw, Exception cause) {
        return new NodeException(
                NodeException.Kind.UNAVAILABLE,
                "node answered getblock for height " + height + " with " + raw.length
                        + " bytes that are not a block with its transactions" + (cause == null ? "" : ": " + cause),
                cause);
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
