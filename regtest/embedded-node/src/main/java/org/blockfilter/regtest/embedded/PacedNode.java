package org.blockfilter.regtest.embedded;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.RegtestNode;

/**
 * An {@link EmbeddedNode} seen through {@link RegtestNode} with its {@link SettableClock} moved
 * forward a fixed interval before every block {@link #mine(int)} makes, so a chain that a
 * generator drives through the interface gets realistic, deterministic timestamps. Closing it
 * does not close the node. Thread-safe as the node is.
 */
final class PacedNode implements RegtestNode {
    private final EmbeddedNode node;
    private final SettableClock clock;
    private final Duration interval;

    PacedNode(EmbeddedNode node, SettableClock clock, Duration interval) {
        this.node = node;
        this.clock = clock;
        this.interval = interval;
    }

    @Override
    public List<Sha256Hash> mine(int count) {
        List<Sha256Hash> hashes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            clock.advance(interval);
            hashes.addAll(node.mine(1));
        }
        return hashes;
    }

    @Override
    public List<Sha256Hash> reorg(int depth, int newBlocks) {
        clock.advance(interval);
        return node.reorg(depth, newBlocks);
    }

    @Override
    public String name() {
        return node.name();
    }

    @Override
    public int tipHeight() {
        return node.tipHeight();
    }

    @Override
    public Sha256Hash tipHash() {
        return node.tipHash();
    }

    @Override
    public Optional<Sha256Hash> blockHash(int height) {
        return node.blockHash(height);
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        return node.rawBlock(hash);
    }

    @Override
    public Sha256Hash submitTransaction(byte[] rawTx) {
        return node.submitTransaction(rawTx);
    }

    @Override
    public List<Sha256Hash> mempool() {
        return node.mempool();
    }

    @Override
    public Address miningAddress() {
        return node.miningAddress();
    }

    @Override
    public void submitBlock(byte[] rawBlock) {
        node.submitBlock(rawBlock);
    }

    @Override
    public URI rpcUri() {
        return node.rpcUri();
    }

    @Override
    public String rpcUser() {
        return node.rpcUser();
    }

    @Override
    public String rpcPassword() {
        return node.rpcPassword();
    }

    @Override
    public Optional<InetSocketAddress> p2pAddress() {
        return node.p2pAddress();
    }

    @Override
    public void close() {
        // the node's owner closes it
    }
}
