package org.blockfilter.wallet.legacy;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.AbstractBlockChain;
import org.bitcoinj.core.BitcoinSerializer;
import org.bitcoinj.core.Message;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Peer;
import org.bitcoinj.core.PeerAddress;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.UnknownMessage;
import org.bitcoinj.core.VersionMessage;
import org.bitcoinj.core.listeners.PreMessageReceivedEventListener;
import org.bitcoinj.net.NioClientManager;
import org.bitcoinj.params.MainNetParams;
import org.bitcoinj.params.RegTestParams;
import org.bitcoinj.params.SigNetParams;
import org.bitcoinj.params.TestNet3Params;
import org.bitcoinj.utils.Threading;

/**
 * Lets a bitcoinj 0.17.1 {@code PeerGroup} ignore the messages it does not know, as full nodes
 * ignore unknown message types. Stock bitcoinj kills the connection on them in two ways, and
 * today's nodes send such messages to a peer announcing protocol 70016:
 *
 * <ul>
 *   <li>its serializer accepts an unknown command only with an empty payload, so {@code sendcmpct}
 *       (BIP 152, 9 bytes, sent by bcoin and Bitcoin Core) and {@code sendtxrcncl} (BIP 330, 12
 *       bytes, Bitcoin Core) fail with "Error deserializing message";
 *   <li>its {@code Peer} rejects any message but {@code version}, {@code verack} and {@code
 *       sendaddrv2} before the handshake completes, so {@code wtxidrelay} (BIP 339, which must come
 *       before {@code verack}) and {@code sendtxrcncl} fail with "before version handshake is complete".
 * </ul>
 *
 * <p>bitcoinj takes its serializer from the {@link NetworkParameters} a peer is built with
 * ({@code getDefaultSerializer()} calls {@code getSerializer()}), so {@link #peerGroup} gives its
 * peers the same network's parameters with a {@link Serializer} that reads an unknown command's payload,
 * checks its checksum and yields an {@link UnknownMessage}; a pre-message listener (which bitcoinj
 * runs before its handshake check) discards those. Known commands, and their
 * malformed payloads, go through bitcoinj unchanged.
 */
final class UnknownMessages {
    private UnknownMessages() {}

    /** The commands bitcoinj 0.17.1's {@code BitcoinSerializer.makeMessage} parses. */
    private static final Set<String> KNOWN = Set.of(
            "version",
            "inv",
            "block",
            "merkleblock",
            "getdata",
            "getblocks",
            "getheaders",
            "tx",
            "sendaddrv2",
            "addr",
            "addrv2",
            "ping",
            "pong",
            "verack",
            "headers",
            "filterload",
            "notfound",
            "mempool",
            "reject",
            "sendheaders",
            "feefilter");

    /** Drops the {@link UnknownMessage}s a {@link Serializer} yields (registered on the peer's thread). */
    private static final PreMessageReceivedEventListener DROP = (peer, m) -> m instanceof UnknownMessage ? null : m;

    /**
     * A peer group whose peers ignore unknown messages. Built as bitcoinj's public constructor builds
     * one, except for the parameters: that constructor keeps only the network and looks the stock
     * parameters up again, so the protected one, which keeps them, is used.
     */
    static PeerGroup peerGroup(NetworkParameters params, AbstractBlockChain chain, double falsePositiveRate) {
        return new PeerGroup(tolerating(params), chain, new NioClientManager(), falsePositiveRate) {
            @Override
            protected Peer createPeer(PeerAddress address, VersionMessage version) {
                // On the peer itself: the group hands its own listeners over only after the handshake.
                Peer peer = super.createPeer(address, version);
                peer.addPreMessageReceivedEventListener(Threading.SAME_THREAD, DROP);
                return peer;
            }
        };
    }

    /** {@code params}'s network with a {@link Serializer}. */
    private static NetworkParameters tolerating(NetworkParameters params) {
        if (!(params.network() instanceof BitcoinNetwork network)) {
            throw new IllegalArgumentException("BIP 37 sync needs a Bitcoin network, not " + params.getId());
        }
        return switch (network) {
            case MAINNET ->
                new MainNetParams() {
                    @Override
                    public BitcoinSerializer getSerializer() {
                        return new Serializer(this);
                    }
                };
            case TESTNET ->
                new TestNet3Params() {
                    @Override
                    public BitcoinSerializer getSerializer() {
                        return new Serializer(this);
                    }
                };
            case SIGNET ->
                new SigNetParams() {
                    @Override
                    public BitcoinSerializer getSerializer() {
                        return new Serializer(this);
                    }
                };
            case REGTEST ->
                new RegTestParams() {
                    @Override
                    public BitcoinSerializer getSerializer() {
                        return new Serializer(this);
                    }
                };
        };
    }

    /** bitcoinj's serializer, except that an unknown command with a payload is an {@link UnknownMessage}. */
    static final class Serializer extends BitcoinSerializer {
        Serializer(NetworkParameters params) {
            super(params);
        }

        private Serializer(NetworkParameters params, int protocolVersion) {
            super(params, protocolVersion);
        }

        @Override
        public BitcoinSerializer withProtocolVersion(int protocolVersion) {
            return protocolVersion == getProtocolVersion() ? this : new Serializer(getParameters(), protocolVersion);
        }

        @Override
        public Message deserializePayload(BitcoinPacketHeader header, ByteBuffer in)
                throws ProtocolException, BufferUnderflowException {
            if (KNOWN.contains(header.command) || header.size == 0) {
                return super.deserializePayload(header, in);
            }
            byte[] payload = new byte[header.size];
            in.get(payload);
            byte[] sum = Arrays.copyOf(Sha256Hash.hashTwice(payload), 4);
            if (!Arrays.equals(sum, header.checksum)) {
                throw new ProtocolException(header.command + " checksum does not match its payload");
            }
            return new UnknownMessage(header.command);
        }
    }
}
