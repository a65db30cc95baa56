package org.blockfilter.bitcoinj.internal;

import java.net.InetSocketAddress;
import java.util.List;
import org.bitcoinj.core.Peer;
import org.bitcoinj.core.PeerAddress;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.Services;
import org.bitcoinj.core.VersionMessage;
import org.bitcoinj.wallet.Wallet;

/**
 * bitcoinj's own BIP 37 client, a {@link PeerGroup}, used for unconfirmed transactions only. It has no block chain
 * (constructed with {@code null}), so it downloads no block and no filtered block: blocks and confirmations come from
 * the compact-filter scan alone. What it does is bitcoinj's: {@link PeerGroup#addWallet} builds the Bloom filter
 * from the wallet's keys and scripts at the given false-positive rate, sends {@code filterload} and {@code mempool}
 * to each peer on connect and again when the wallet adds keys or scripts (its look-ahead moves), requests announced
 * transactions with {@code getdata} and hands the relevant ones to {@code Wallet.receivePending}; it also becomes the
 * wallet's transaction broadcaster (bitcoinj then sends the wallet's pending transactions to the peers).
 *
 * <p>Two settings differ from a {@code PeerGroup} left alone: it connects only to the given peers (no localhost
 * probe, no discovery), and its version message asks peers not to relay transactions before the filter arrives
 * (bitcoinj asks for them when it has no chain), and it announces {@code NODE_WITNESS}, since it sends transactions
 * with their witnesses. Its protocol version is raised to 70016 because bitcoinj 0.17.1
 * announces 70013 yet sends BIP 155's {@code sendaddrv2}, which btcd accepts only from 70016 and answers by
 * disconnecting.
 *
 * <p>Create it on the thread that feeds the wallet's chain: the peers' threads inherit that thread's bitcoinj {@code
 * Context}, whose confidence table records which peers announced a transaction. Thread-safe as {@code PeerGroup}
 * is.
 */
public final class MempoolLink implements AutoCloseable {
    /** BIP 155's sendaddrv2 is accepted by btcd from this protocol version (BIP 339's, wtxidrelay) on. */
    static final int SENDADDRV2_PROTOCOL_VERSION = 70016;

    private final Wallet wallet;
    private final PeerGroup peers;

    private MempoolLink(Wallet wallet, PeerGroup peers) {
        this.wallet = wallet;
        this.peers = peers;
    }

    /**
     * Starts connecting to {@code addresses} (at least one) with a Bloom filter of {@code wallet} at {@code
     * falsePositiveRate}; returns before any handshake (a silent or absent peer only means no pending transactions).
     */
    public static MempoolLink start(Wallet wallet, List<InetSocketAddress> addresses, double falsePositiveRate) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("a mempool link needs at least one peer");
        }
        PeerGroup group = new PeerGroup(wallet.network(), null);
        group.setUseLocalhostPeerWhenPossible(false);
        group.setBloomFilterFalsePositiveRate(falsePositiveRate);
        for (InetSocketAddress a : addresses) {
            group.addAddress(PeerAddress.simple(a));
        }
        group.setMaxConnections(addresses.size()); // after addAddress, which raises it
        group.addWallet(wallet);
        // After addWallet, which sets the relay flag from the chain (none here: "relay everything").
        VersionMessage version = group.getVersionMessage();
        version.relayTxesBeforeFilter = false;
        version.clientVersion = Math.max(version.clientVersion, SENDADDRV2_PROTOCOL_VERSION);
        // bitcoinj sends the wallet's transactions with their witnesses (BIP 144), and btcd decodes a peer's messages
        // with witnesses only if that peer announced NODE_WITNESS: without it btcd misreads a segwit payment, calls
        // the message malformed and hangs up, and the payment is never relayed.
        version.localServices = Services.of(version.localServices.bits() | Services.NODE_WITNESS);
        group.setVersionMessage(version);
        group.start();
        return new MempoolLink(wallet, group);
    }

    /** The peers connected now (handshake done). */
    public List<Peer> connectedPeers() {
        return peers.getConnectedPeers();
    }

    /** Disconnects from every peer and detaches from the wallet. */
    @Override
    public void close() {
        try {
            peers.stop();
        } finally {
            peers.removeWallet(wallet);
        }
    }
}
