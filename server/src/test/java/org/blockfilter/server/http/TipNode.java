package org.blockfilter.server.http;

import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.node.FeeEstimates;
import org.blockfilter.server.node.NodeGateway;

/** A node at the index's tip that knows no other block, relays nothing and has no fee estimates. */
record TipNode(int height) implements NodeGateway {
    @Override
    public int nodeHeight() {
        return height;
    }

    @Override
    public boolean hasBlock(Sha256Hash blockHash) {
        return false;
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash blockHash) {
        return Optional.empty();
    }

    @Override
    public Sha256Hash relay(byte[] rawTx) {
        throw new UnsupportedOperationException("no relay in this test server");
    }

    @Override
    public FeeEstimates feeEstimates(List<Integer> targets) {
        throw new UnsupportedOperationException("no fee estimates in this test server");
    }
}
