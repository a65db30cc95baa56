package org.blockfilter.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.Services;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.testchain.MemorySource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The BIP 37 mempool link against peers that never help: one that accepts the connection and stays silent, one
 * that hangs up at once. Opening, syncing by filters and closing go on as without the link. (A link that waited
 * for its peer would hang; the timeout turns that into a failure.)
 */
@Timeout(120)
class MempoolLinkTest {
    private static final Coin PAID = Coin.valueOf(1_000_000);
    /** Generous for a loaded machine; bitcoinj connects to a given peer at once. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void defaultOptionsHaveNoMempoolPeersAndBitcoinjsFalsePositiveRate() {
        assertEquals(List.of(), FilterSync.Options.DEFAULT.mempoolPeers());
        assertEquals(PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE, FilterSync.Options.DEFAULT.bloomFalsePositiveRate());
        Wallet w = TestWallet.create();
        try (FilterSync sync = FilterSync.open(w, null, dir.resolve("w.spvchain"))) {
            assertEquals(List.of(), sync.mempoolPeers());
        }
    }

    @Test
    void rejectsAFalsePositiveRateOutsideZeroToOne() {
        for (double bad : new double[] {0, 1, -0.1, Double.NaN}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> FilterSync.Options.DEFAULT.withBloomFalsePositiveRate(bad));
            assertTrue(e.getMessage().contains("false-positive rate"), e.getMessage());
        }
    }

    @Test
    void aSilentMempoolPeerLeavesTheFilterSyncAsItIs() throws Exception {
        try (Listener silent = new Listener(false)) {
            syncsWithTheLinkTo(silent);
        }
    }

    /**
     * The version message the link sends first: relay off until its filter is loaded (BIP 37's flag, the payload's
     * last byte; bitcoinj sets it on when it has no chain), protocol 70016 (btcd refuses bitcoinj's sendaddrv2
     * below it), and NODE_WITNESS among its services (btcd reads the witness transactions bitcoinj sends only from a
     * peer that announces it).
     */
    @Test
    void theLinkAsksPeersNotToRelayTransactionsBeforeItsFilter() throws Exception {
        Wallet w = TestWallet.create();
        FilterSync.Options options;
        byte[] version;
        try (Listener silent = new Listener(false)) {
            options = FilterSync.Options.DEFAULT.withMempoolPeers(List.of(silent.address()));
            try (FilterSync sync = FilterSync.open(w, null, dir.resolve("w.spvchain"), options)) {
                version = silent.awaitFirstMessage();
            }
        }
        ByteBuffer b = ByteBuffer.wrap(version).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("version", new String(version, 4, 7, StandardCharsets.US_ASCII));
        int length = b.getInt(16);
        assertEquals(24 + length, version.length);
        assertEquals(70016, b.getInt(24), "protocol version");
        assertEquals(Services.NODE_WITNESS, b.getLong(24 + 4) & Services.NODE_WITNESS, "NODE_WITNESS announced");
        assertEquals(0, version[version.length - 1], "relay before filter");
    }

    @Test
    void aMempoolPeerThatHangsUpLeavesTheFilterSyncAsItIs() throws Exception {
        try (Listener hangsUp = new Listener(true)) {
            syncsWithTheLinkTo(hangsUp);
        }
    }

    private void syncsWithTheLinkTo(Listener peer) throws Exception {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(TestWallet.receiving(ScriptType.P2WPKH, 0)), PAID)));
        chain.mine(1);
        Wallet w = TestWallet.create();
        FilterSync.Options options = FilterSync.Options.DEFAULT.withMempoolPeers(List.of(peer.address()));
        try (FilterSync sync = FilterSync.open(w, dir.resolve("w.wallet"), dir.resolve("w.spvchain"), options)) {
            peer.awaitConnection();
            FilterSync.Report r = sync.sync(List.of(new MemorySource("honest", chain)));
            assertEquals(chain.tip().getHash(), r.tipHash());
            assertEquals(1, r.matchedBlocks());
            assertEquals(PAID, w.getBalance(Wallet.BalanceType.AVAILABLE));
            assertEquals(List.of(), sync.mempoolPeers(), "no handshake with a peer that never answers");
        }
        assertEquals(
                chain.tip().getHash(),
                Wallet.loadFromFile(dir.resolve("w.wallet").toFile()).getLastBlockSeenHash());
    }

    /** A TCP listener on 127.0.0.1 (free port) that accepts and then says nothing, or hangs up at once. */
    private static final class Listener implements AutoCloseable {
        private final ServerSocket socket;
        private final AtomicInteger accepted = new AtomicInteger();
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        /** The first message of the first connection (silent listener only): header and payload. */
        private final CompletableFuture<byte[]> firstMessage = new CompletableFuture<>();

        private final Thread acceptor;

        Listener(boolean hangUp) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(
                    () -> {
                        while (!socket.isClosed()) {
                            try {
                                Socket s = socket.accept();
                                accepted.incrementAndGet();
                                if (hangUp) {
                                    s.close();
                                } else {
                                    open.add(s);
                                    if (!firstMessage.isDone()) {
                                        firstMessage.complete(readMessage(s));
                                    }
                                }
                            } catch (IOException e) {
                                firstMessage.completeExceptionally(e);
                                return; // closed, or the first message was cut short
                            }
                        }
                    },
                    "mempool-peer-listener");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        /** A P2P message: the 24-byte header, then as many payload bytes as the header's length says. */
        private static byte[] readMessage(Socket s) throws IOException {
            s.setSoTimeout((int) DEADLINE.toMillis());
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] header = new byte[24];
            in.readFully(header);
            int length = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(16);
            if (length < 0 || length > 1_000) {
                throw new IOException("not a version message: payload length " + length);
            }
            byte[] message = Arrays.copyOf(header, 24 + length);
            in.readFully(message, 24, length);
            return message;
        }

        byte[] awaitFirstMessage() throws Exception {
            return firstMessage.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
        }

        /** Waits until the link has connected at least once (so the test exercises the peer it names). */
        void awaitConnection() throws InterruptedException {
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (accepted.get() == 0) {
                assertTrue(System.nanoTime() < deadline, "the mempool link never connected in " + DEADLINE);
                Thread.sleep(20);
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
            acceptor.join();
        }
    }
}
