package org.blockfilter.server.node;

import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;

/**
 * What the REST layer needs from the node besides the filter index: the node's height (to tell
 * "not indexed yet" from "unknown"), raw blocks by hash, transaction relay and fee estimates. Implementations
 * are thread-safe and never return null; a node that cannot be reached is reported as a
 * {@link NodeException} of kind {@link NodeException.Kind#UNAVAILABLE}.
 */
public interface NodeGateway {

    /** Height of the node's best chain. */
    int nodeHeight();

    /** Whether the node knows a block (header) with this hash. */
    boolean hasBlock(Sha256Hash blockHash);

    /** The block's wire serialization, with witnesses; empty if the node does not know it. */
    Optional<byte[]> rawBlock(Sha256Hash blockHash);

    /**
     * Relays a raw transaction and returns its txid.
     *
     * @throws NodeException of kind {@link NodeException.Kind#REJECTED} with the node's reason
     */
    Sha256Hash relay(byte[] rawTx);

    /**
     * The node's fee-rate estimates for {@code targets} (confirmation within that many blocks,
     * each 1..1008). A node without estimates answers with each target's reason, not an error.
     *
     * @throws NodeException of kind {@link NodeException.Kind#UNAVAILABLE} when the node cannot be asked
     */
    FeeEstimates feeEstimates(java.util.List<Integer> targets);

    /**
     * What is known of the node without asking it (its last height and when, whether it is
     * failing and since when); empty if the gateway keeps no such record.
     */
    default Optional<org.blockfilter.server.index.NodeHealth> health() {
        return Optional.empty();
    }
}
