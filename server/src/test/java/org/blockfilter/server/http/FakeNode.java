package org.blockfilter.server.http;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.server.node.FeeEstimates;
import org.blockfilter.server.node.NodeException;
import org.blockfilter.server.node.NodeGateway;

/**
 * A {@link NodeGateway} that knows the test chain's blocks plus one the index has not reached, is
 * {@code ahead} blocks past the index tip, and accepts transactions unless their first output
 * pays 0 (then it rejects them as Core would with "dust"). Its fee estimates are those of a Core
 * node with fee history: 2.5 sat/vB per target block below 12 (answered for the target itself,
 * target 1 as 2 as Core does), none past 144.
 */
final class FakeNode implements NodeGateway {
    private final RestTestChain chain;
    private final int ahead;
    private final boolean reachable;

    FakeNode(RestTestChain chain, int ahead, boolean reachable) {
        this.chain = chain;
        this.ahead = ahead;
        this.reachable = reachable;
    }

    private void check() {
        if (!reachable) {
            throw new NodeException(NodeException.Kind.UNAVAILABLE, "node unavailable: connection refused", null);
        }
    }

    @Override
    public int nodeHeight() {
        check();
        return chain.tip().height() + ahead;
    }

    @Override
    public boolean hasBlock(Sha256Hash blockHash) {
        check();
        return chain.rawBlocks.containsKey(blockHash);
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash blockHash) {
        check();
        byte[] raw = chain.rawBlocks.get(blockHash);
        return raw == null ? Optional.empty() : Optional.of(raw.clone());
    }

    @Override
    public Sha256Hash relay(byte[] rawTx) {
        check();
        Transaction tx = Transaction.read(ByteBuffer.wrap(rawTx));
        if (tx.getOutputs().isEmpty() || tx.getOutput(0).getValue().isZero()) {
            throw new NodeException(NodeException.Kind.REJECTED, "sendrawtransaction: dust (code -26)", null);
        }
        return tx.getTxId();
    }

    @Override
    public FeeEstimates feeEstimates(List<Integer> targets) {
        check();
        return new FeeEstimates(
                FeeEstimates.SMART,
                targets.stream()
                        .map(t -> t > 144
                                ? new FeeEstimates.Estimate(t, null, 144, "Insufficient data or no feerate found")
                                : new FeeEstimates.Estimate(t, 2.5 * Math.max(1, 12 - t), Math.max(2, t), null))
                        .toList());
    }
}
