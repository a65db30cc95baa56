package org.blockfilter.wallet.source.p2p;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.ProtocolLimits;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.FeeEstimate;
import org.blockfilter.wallet.source.InvalidAnswerException;
import org.blockfilter.wallet.source.NotAcceptedException;
import org.blockfilter.wallet.source.SourceException;
import org.blockfilter.wallet.source.net.Dialer;
import org.blockfilter.wallet.source.p2p.internal.PeerConnection;
import org.blockfilter.wallet.source.p2p.internal.PeerHeaderChain;
import org.blockfilter.wallet.source.p2p.internal.TxAnnouncement;

/**
 * A {@link ChainSource} that speaks BIP 157 over the Bitcoin P2P protocol to one node.
 *
 * <p>On connect it completes the version handshake and requires the peer's
 * NODE_COMPACT_FILTERS service bit. It keeps the peer's header chain in memory (synced with
 * {@code getheaders} whenever a call needs a height or a newer tip) so that it can ask for
 * ranges by height and check that each {@code cfilter} is for the block it should be. It connects
 * on the first request ({@link #open}) or at once ({@link #connect}).
 *
 * <p>Every request waits at most {@link Options#timeout()} for its answer, and at most {@link
 * Options#silence()} for the peer to send anything at all: a peer that stays silent (nodes ignore
 * requests they will not serve; btcd does so while it considers itself behind) or closes the
 * connection is tried again on a fresh connection, up to {@link Options#attempts()} times, each
 * time allowing twice the silence (at most the timeout), so a silent peer costs seconds and a
 * slow one still gets its answer through. A name that does not resolve and a refused connection
 * are not tried again. Each failure says which of these happened. A malformed or mismatched
 * answer is not retried: it is an {@link InvalidAnswerException} naming this source at once.
 *
 * <p>Thread-safe: calls are serialized over the one connection. No method returns null.
 */
public final class P2pSource implements ChainSource {

    /**
     * @param timeout   how long one request waits for its whole answer (and the handshake for its)
     * @param attempts  tries per call, each on a fresh connection after a failure
     * @param maxHeight the largest header chain kept in memory (80 bytes per header)
     * @param silence   how long the first try waits for the peer to send anything; each further
     *     try waits twice as long as the one before, never longer than {@code timeout}
     * @param transport BIP 324 v2 with a v1 fallback ({@link P2pTransport#AUTO}, the default), or one only
     * @param dialer    how connections are opened (directly, or through a SOCKS5 proxy)
     */
    public record Options(
            Duration timeout, int attempts, int maxHeight, Duration silence, P2pTransport transport, Dialer dialer) {
        /** The silence allowed on a first try, as neutrino's shortest query timeout. */
        public static final Duration DEFAULT_SILENCE = Duration.ofSeconds(2);

        /**
         * 10 s per request, 3 attempts, up to 2,000,000 headers in memory, 2 s silence on a first try, BIP 324 with a
         * v1 fallback, direct connections.
         */
        public static final Options DEFAULT =
                new Options(Duration.ofSeconds(10), 3, 2_000_000, DEFAULT_SILENCE, P2pTransport.AUTO, Dialer.DIRECT);

        public Options {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(silence, "silence");
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(dialer, "dialer");
            if (timeout.isNegative()
                    || timeout.isZero()
                    || silence.isNegative()
                    || silence.isZero()
                    || attempts < 1
                    || maxHeight < 1) {
                throw new IllegalArgumentException("options out of range");
            }
        }

        /** A copy with another timeout per request. */
        public Options withTimeout(Duration t) {
            return new Options(t, attempts, maxHeight, silence, transport, dialer);
        }

        /** A copy with another number of tries per call. */
        public Options withAttempts(int a) {
            return new Options(timeout, a, maxHeight, silence, transport, dialer);
        }

        /** A copy with another silence allowed on a first try. */
        public Options withSilence(Duration s) {
            return new Options(timeout, attempts, maxHeight, s, transport, dialer);
        }

        /** A copy with another transport: v2 only, v1 only, or v2 with a v1 fallback. */
        public Options withTransport(P2pTransport t) {
            return new Options(timeout, attempts, maxHeight, silence, t, dialer);
        }

        /** A copy that opens its connections with another dialer (e.g. through a SOCKS5 proxy). */
        public Options withDialer(Dialer d) {
            return new Options(timeout, attempts, maxHeight, silence, transport, d);
        }

        /** The silence allowed on try {@code attempt} (from 1). */
        long silenceMillis(int attempt) {
            long ms = silence.toMillis() << Math.min(20, attempt - 1);
            return Math.max(1, Math.min(timeout.toMillis(), ms));
        }
    }

    static final String USER_AGENT = "/blockfilter-wallet:0.1/";
    private static final Sha256Hash ZERO = Sha256Hash.ZERO_HASH;
    /** Bitcoin Core announces to inbound peers every 5 s on average (Poisson): 60 s misses 1 in e^12. */
    private static final Duration MAX_RELAY_WAIT = Duration.ofSeconds(60);

    private final InetSocketAddress peer;
    private final Chain network;
    private final Options options;
    private final String name;
    private final PeerHeaderChain chain;
    private PeerConnection connection;
    /** The try (from 1) at which the peer last answered: later calls start with its silence. */
    private int answeredAt = 1;

    private boolean closed;
    private long pingNonce = new java.security.SecureRandom().nextLong();

    private P2pSource(InetSocketAddress peer, Chain network, Options options) {
        this.peer = peer;
        this.network = network;
        this.options = options;
        this.name = "p2p:" + peer.getHostString() + ":" + peer.getPort();
        this.chain = new PeerHeaderChain(network.genesisHeader(), options.maxHeight());
    }

    /**
     * Connects and handshakes now, so a peer that does not serve compact filters fails here. The
     * network gives the message start and the genesis the peer's header chain must start from.
     */
    public static P2pSource connect(InetSocketAddress peer, Chain network, Options options) {
        P2pSource s = open(peer, network, options);
        s.call("connect", c -> null);
        return s;
    }

    /**
     * A source that connects on its first request, so a peer that cannot be reached fails that
     * request (and the sync counts it as one failed source) instead of the caller. {@code peer}
     * may be unresolved: the name is resolved on each connection.
     */
    public static P2pSource open(InetSocketAddress peer, Chain network, Options options) {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(options, "options");
        return new P2pSource(peer, network, options);
    }

    @Override
    public String name() {
        return name;
    }

    /** The peer's tip height, after syncing its headers. */
    @Override
    public synchronized int tipHeight() {
        call("getheaders", this::syncHeaders);
        return chain.tipHeight();
    }

    @Override
    public synchronized List<byte[]> blockHeaders(int startHeight, int count) {
        checkHeight(startHeight);
        if (count < 1 || count > ProtocolLimits.MAX_HEADERS_RESULTS) {
            throw new IllegalArgumentException("count must be 1.." + ProtocolLimits.MAX_HEADERS_RESULTS + ": " + count);
        }
        call("getheaders", this::syncHeaders);
        if (startHeight > chain.tipHeight()) {
            throw fail("headers from " + startHeight + ": above the peer's tip " + chain.tipHeight());
        }
        int end = Math.min(chain.tipHeight(), startHeight + count - 1);
        List<byte[]> out = new ArrayList<>(end - startHeight + 1);
        for (int h = startHeight; h <= end; h++) {
            out.add(chain.headerAt(h));
        }
        return out;
    }

    @Override
    public synchronized FilterHashBatch filterHeaders(int startHeight, Sha256Hash stopHash) {
        checkHeight(startHeight);
        int stopHeight = heightOf(stopHash);
        int expected = stopHeight - startHeight + 1;
        if (expected < 1 || expected > Bip157.MAX_CFHEADERS) {
            throw new IllegalArgumentException(
                    "range " + startHeight + ".." + stopHeight + " is not 1.." + Bip157.MAX_CFHEADERS + " blocks");
        }
        Message.CFHeaders answer = call("getcfheaders", c -> {
            c.send(new Message.GetCFHeaders(Bip158.BASIC_FILTER_TYPE, startHeight, stopHash));
            long deadline = deadline();
            while (true) {
                if (c.receive(deadline) instanceof Message.CFHeaders m
                        && m.stopHash().equals(stopHash)) {
                    return m;
                }
            }
        });
        if (answer.filterType() != Bip158.BASIC_FILTER_TYPE) {
            throw invalid("cfheaders: filter type " + answer.filterType() + ", asked for " + Bip158.BASIC_FILTER_TYPE);
        }
        if (answer.filterHashes().size() != expected) {
            throw invalid("cfheaders: " + answer.filterHashes().size() + " filter hashes for " + expected + " blocks "
                    + startHeight + ".." + stopHeight);
        }
        return new FilterHashBatch(answer.previousHeader(), answer.filterHashes());
    }

    @Override
    public synchronized List<Sha256Hash> filterCheckpoints(Sha256Hash stopHash) {
        int stopHeight = heightOf(stopHash);
        Message.CFCheckpt answer = call("getcfcheckpt", c -> {
            c.send(new Message.GetCFCheckpt(Bip158.BASIC_FILTER_TYPE, stopHash));
            long deadline = deadline();
            while (true) {
                if (c.receive(deadline) instanceof Message.CFCheckpt m
                        && m.stopHash().equals(stopHash)) {
                    return m;
                }
            }
        });
        if (answer.filterType() != Bip158.BASIC_FILTER_TYPE) {
            throw invalid("cfcheckpt: filter type " + answer.filterType() + ", asked for " + Bip158.BASIC_FILTER_TYPE);
        }
        int expected = stopHeight / Bip157.CHECKPOINT_INTERVAL;
        if (answer.headers().size() != expected) {
            throw invalid("cfcheckpt: " + answer.headers().size() + " checkpoints up to height " + stopHeight
                    + ", expected " + expected);
        }
        return answer.headers();
    }

    /** BIP 157 {@code getcfilters}; each {@code cfilter} must be for the next block of the peer's header chain. */
    @Override
    public synchronized List<BlockFilterBytes> filters(int startHeight, Sha256Hash stopHash) {
        checkHeight(startHeight);
        int stopHeight = heightOf(stopHash);
        int expected = stopHeight - startHeight + 1;
        if (expected < 1 || expected > Bip157.MAX_CFILTERS) {
            throw new IllegalArgumentException(
                    "range " + startHeight + ".." + stopHeight + " is not 1.." + Bip157.MAX_CFILTERS + " blocks");
        }
        return call("getcfilters", c -> {
            c.send(new Message.GetCFilters(Bip158.BASIC_FILTER_TYPE, startHeight, stopHash));
            long deadline = deadline();
            List<BlockFilterBytes> out = new ArrayList<>(expected);
            while (out.size() < expected) {
                if (c.receive(deadline) instanceof Message.CFilter m) {
                    Sha256Hash want = chain.hashAt(startHeight + out.size());
                    if (m.filterType() != Bip158.BASIC_FILTER_TYPE) {
                        throw invalid(
                                "cfilter: filter type " + m.filterType() + ", asked for " + Bip158.BASIC_FILTER_TYPE);
                    }
                    if (!m.blockHash().equals(want)) {
                        throw invalid("cfilter #" + out.size() + " is for block " + m.blockHash() + ", expected " + want
                                + " at height " + (startHeight + out.size()));
                    }
                    out.add(new BlockFilterBytes(m.blockHash(), m.filter()));
                }
            }
            return List.copyOf(out);
        });
    }

    /** {@code getdata} MSG_WITNESS_BLOCK; the block must parse and hash to {@code blockHash}. */
    @Override
    public synchronized byte[] block(Sha256Hash blockHash) {
        Objects.requireNonNull(blockHash, "blockHash");
        return call("getdata block", c -> {
            c.send(new Message.GetData(List.of(new Message.InvItem(Message.MSG_WITNESS_BLOCK, blockHash))));
            long deadline = deadline();
            while (true) {
                Message m = c.receive(deadline);
                if (m instanceof Message.BlockMessage b
                        && PeerHeaderChain.hashOf(b.raw()).equals(blockHash)) {
                    return b.raw();
                }
                if (m instanceof Message.NotFound nf
                        && nf.items().stream().anyMatch(i -> i.hash().equals(blockHash))) {
                    throw fail("peer does not have block " + blockHash);
                }
            }
        });
    }

    /**
     * Offers the transaction by the protocol's rule ({@link TxAnnouncement}: announce with {@code
     * inv}, serve the peer's {@code getdata}) and returns its txid only once the peer showed that
     * it accepted it: it serves it back from its mempool, or announces it to a second connection
     * that asked for transaction relay. A peer that rejects it, never asks for it within the
     * timeout, or takes it and shows neither within {@link #relayWait()} is a {@link
     * NotAcceptedException} saying which.
     */
    @Override
    public synchronized Sha256Hash broadcast(byte[] rawTransaction) {
        Objects.requireNonNull(rawTransaction, "rawTransaction");
        Sha256Hash txid;
        try {
            ByteBuffer buf = ByteBuffer.wrap(rawTransaction);
            txid = Transaction.read(buf).getTxId();
            if (buf.hasRemaining()) {
                throw new IllegalArgumentException("transaction has " + buf.remaining() + " trailing bytes");
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a serialized transaction: " + e.getMessage(), e);
        }
        TxAnnouncement.Verdict verdict = call("tx", c -> {
            // The peer may take its time to ask for the transaction or to announce it: silence is no failure here.
            long silence = c.silenceMillis();
            c.allowSilence(Math.max(options.timeout().toMillis(), relayWait().toMillis()));
            try (PeerConnection watcher = openWatcher()) {
                return new TxAnnouncement(c, watcher, rawTransaction, () -> ++pingNonce)
                        .run(options.timeout(), relayWait());
            } finally {
                c.allowSilence(silence);
            }
        });
        if (!verdict.accepted()) {
            throw new NotAcceptedException(name, "transaction " + txid + " not accepted: " + verdict.detail());
        }
        return txid;
    }

    /** How long a peer that took our transaction has to announce it to our second connection. */
    Duration relayWait() {
        Duration six = options.timeout().multipliedBy(6);
        return six.compareTo(MAX_RELAY_WAIT) < 0 ? six : MAX_RELAY_WAIT;
    }

    /**
     * A second connection that asks for transaction relay, on which Core announces what it
     * accepted (it announces a transaction to every peer but the one it came from); null if the
     * peer refuses it (e.g. it is full): the broadcast then relies on the peer serving it back.
     */
    private PeerConnection openWatcher() {
        try {
            return openConnection(relayWait().toMillis(), true);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        dropConnection();
    }

    @Override
    public String toString() {
        return name;
    }

    // --- headers ---

    /** Height of a block in the peer's chain, syncing headers first if it is new to us. */
    private int heightOf(Sha256Hash hash) {
        Objects.requireNonNull(hash, "stopHash");
        OptionalInt h = chain.heightOf(hash);
        if (h.isEmpty()) {
            call("getheaders", this::syncHeaders);
            h = chain.heightOf(hash);
        }
        if (h.isEmpty()) {
            throw fail("block " + hash + " is not in the peer's best chain");
        }
        return h.getAsInt();
    }

    /** getheaders until the peer has no more ({@link PeerHeaderChain#sync}). */
    private Void syncHeaders(PeerConnection c) throws IOException {
        return chain.sync(c, () -> ++pingNonce, options.timeout().toNanos());
    }

    // --- connection and retries ---

    private interface Exchange<T> {
        T run(PeerConnection c) throws IOException;
    }

    private <T> T call(String what, Exchange<T> exchange) {
        IOException last = null;
        int first = Math.min(answeredAt, options.attempts());
        for (int attempt = first; attempt <= options.attempts(); attempt++) {
            try {
                T answer = exchange.run(connection(attempt));
                answeredAt = attempt;
                return answer;
            } catch (WireFormatException e) {
                dropConnection();
                throw invalid(what + ": malformed answer: " + e.getMessage(), e);
            } catch (UnknownHostException | ConnectException e) {
                // The name does not resolve or nothing listens there: asking again will not help.
                dropConnection();
                throw fail(what + ": " + e.getMessage(), e);
            } catch (IOException e) {
                // Silent or closed: try again on a fresh connection, allowing a longer silence.
                last = e;
                dropConnection();
            } catch (SourceException e) {
                dropConnection();
                throw e;
            }
        }
        int tries = options.attempts() - first + 1;
        throw fail(
                what + ": no answer after " + tries
                        + (tries == 1 ? " attempt" : " attempts, each on a fresh connection") + "; the last: "
                        + last.getMessage(),
                last);
    }

    private PeerConnection connection(int attempt) throws IOException {
        if (closed) {
            throw fail("closed");
        }
        if (connection == null) {
            PeerConnection c = openConnection(options.silenceMillis(attempt), false);
            if ((c.peerVersion().services() & Message.NODE_COMPACT_FILTERS) == 0) {
                c.close();
                throw fail("peer does not advertise NODE_COMPACT_FILTERS (services 0x"
                        + Long.toHexString(c.peerVersion().services()) + ", "
                        + c.peerVersion().userAgent() + ")");
            }
            connection = c;
        }
        return connection;
    }

    private PeerConnection openConnection(long silenceMillis, boolean relay) throws IOException {
        long timeout = options.timeout().toMillis();
        return PeerConnection.open(
                options.dialer(),
                peer,
                network.magic(),
                timeout,
                silenceMillis,
                USER_AGENT,
                relay,
                options.transport());
    }

    private void dropConnection() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    private long deadline() {
        return System.nanoTime() + options.timeout().toNanos();
    }

    private static void checkHeight(int height) {
        if (height < 0) {
            throw new IllegalArgumentException("height must be >= 0: " + height);
        }
    }

    /** A failure of this source; {@code cause} is at most one throwable. */
    private SourceException fail(String message, Throwable... cause) {
        return new SourceException(name, message, cause.length == 0 ? null : cause[0]);
    }

    /** BIP 157 and the P2P protocol have no fee-estimate message (only {@code feefilter}, a floor). */
    @Override
    public FeeEstimate feeEstimate(int targetBlocks) {
        return FeeEstimate.none(
                targetBlocks,
                name() + ": a P2P peer serves no fee estimates (the protocol has no message for them);"
                        + " give --fee-rate, or a --server whose node estimates fees");
    }

    private InvalidAnswerException invalid(String message, Throwable... cause) {
        return new InvalidAnswerException(name, message, cause.length == 0 ? null : cause[0]);
    }
}
