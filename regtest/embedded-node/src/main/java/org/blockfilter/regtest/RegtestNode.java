package org.blockfilter.regtest;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.params.RegTestParams;

/**
 * What our code and tests need from a regtest node, whichever node it is: btcd, Bitcoin Core in
 * a container, or the embedded in-process node. Every call that waits has a timeout and fails
 * with a clear error (including the node's log where there is one) instead of hanging.
 *
 * <p>Implementations are thread-safe. No method returns null. {@link #close()} stops the node
 * and removes its temporary data, and may be called more than once.
 */
public interface RegtestNode extends AutoCloseable {

    /** bitcoinj's regtest parameters, which all backends use. */
    NetworkParameters PARAMS = RegTestParams.get();

    /** Short name for logs and test reports: {@code btcd}, {@code bitcoind}, {@code embedded}. */
    String name();

    /** Height of the best chain's tip (0 when only the genesis block exists). */
    int tipHeight();

    /** Hash of the best chain's tip. */
    Sha256Hash tipHash();

    /** Hash of the best-chain block at {@code height}, or empty above the tip. */
    Optional<Sha256Hash> blockHash(int height);

    /** The block's wire serialization with witnesses, or empty if the node does not know it. */
    Optional<byte[]> rawBlock(Sha256Hash hash);

    /** The block parsed by bitcoinj. */
    default Optional<Block> block(Sha256Hash hash) {
        return rawBlock(hash).map(raw -> PARAMS.getDefaultSerializer().makeBlock(java.nio.ByteBuffer.wrap(raw)));
    }

    /** Relays a signed transaction into the node's mempool and returns its txid. */
    Sha256Hash submitTransaction(byte[] rawTx);

    /** Txids of the transactions in the node's mempool ({@code getrawmempool}), in no promised order. */
    List<Sha256Hash> mempool();

    /**
     * Mines {@code count} blocks on the tip, including the mempool, paying the coinbase to
     * {@link #miningAddress()}, and returns their hashes in order.
     */
    List<Sha256Hash> mine(int count);

    /** The address the coinbase of {@link #mine(int)} pays to (btcd fixes it at start). */
    Address miningAddress();

    /** Submits a block mined elsewhere; throws with the node's reason if it is rejected. */
    void submitBlock(byte[] rawBlock);

    /**
     * Forces a reorg for tests: the last {@code depth} blocks leave the best chain and a
     * competing branch of {@code newBlocks} blocks ({@code newBlocks > depth}) replaces them.
     * Transactions of the dropped blocks may return to the mempool, as on a real node.
     *
     * @return the hashes of the new branch, in order
     */
    List<Sha256Hash> reorg(int depth, int newBlocks);

    /** The JSON-RPC endpoint without credentials, e.g. {@code http://127.0.0.1:18443}. */
    URI rpcUri();

    String rpcUser();

    String rpcPassword();

    /** The node's P2P listening address, if it listens (for BIP 157 and BIP 37 clients). */
    Optional<InetSocketAddress> p2pAddress();

    @Override
    void close();
}
