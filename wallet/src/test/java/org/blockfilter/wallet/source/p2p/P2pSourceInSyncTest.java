package org.blockfilter.wallet.source.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A P2P source beside an honest one in a whole sync: how its misbehaviour is classified, and what it costs. */
class P2pSourceInSyncTest {
    private static final long SERVES_FILTERS = Message.NODE_WITNESS | Message.NODE_COMPACT_FILTERS;

    @TempDir
    Path dir;

    private LightWallet wallet;
    private RegtestChainBuilder chain;

    @BeforeEach
    void chainPayingTheWallet() {
        wallet = TestWallets.create(dir);
        chain = new RegtestChainBuilder();
        chain.mine(3);
        Address paid = wallet.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        chain.mineBlock(List.of(chain.pay(List.of(paid), Coin.COIN)));
        chain.mine(3);
    }

    private static SourceFault fault(SyncReport r, String name) {
        return r.dropped().stream()
                .filter(f -> f.source().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not dropped: " + r.dropped()));
    }

    @Test
    void aHeadersAnswerWhoseHeadersDoNotLinkIsALie() throws IOException {
        List<byte[]> broken = new ArrayList<>();
        for (int h = 1; h <= chain.tipHeight(); h++) {
            broken.add(chain.header(h));
        }
        byte[] second = broken.get(1).clone();
        second[4] ^= 1; // its previous-block hash no longer names the first header
        broken.set(1, second);
        try (FakePeer peer = new FakePeer(
                        SERVES_FILTERS,
                        (n, m) -> m instanceof Message.GetHeaders ? List.of(new Message.Headers(broken)) : List.of());
                P2pSource p2p =
                        P2pSource.connect(peer.address(), Chain.REGTEST, P2pSource.Options.DEFAULT.withAttempts(1))) {
            SyncReport r = new SyncEngine(
                            wallet, List.of(p2p, new MemorySource("honest", chain)), SyncEngine.Options.defaults())
                    .sync();

            SourceFault f = fault(r, p2p.name());
            assertEquals(SourceFault.Kind.LIED, f.kind(), f.toString());
            assertTrue(f.reason().contains("does not link"), f.toString());
            assertEquals(List.of("honest"), r.sourcesUsed());
            assertEquals(Coin.COIN, wallet.ledger().balance(true));
        }
    }

    /** A listener that accepts connections, never says a word, and records when each connection came. */
    private static final class SilentPeer implements AutoCloseable {
        final ServerSocket server;
        final List<Long> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final List<Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();

        SilentPeer() throws IOException {
            server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        accepted.add(System.nanoTime());
                        held.add(s);
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            t.setDaemon(true);
            t.start();
        }

        P2pSource source(P2pSource.Options options) {
            return P2pSource.open(new InetSocketAddress("127.0.0.1", server.getLocalPort()), Chain.REGTEST, options);
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void silentPeersAreWaitedForAtOnceNotOneAfterTheOther() throws IOException {
        P2pSource.Options options =
                P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(30)).withSilence(Duration.ofMillis(200));
        try (SilentPeer a = new SilentPeer();
                SilentPeer b = new SilentPeer();
                P2pSource first = a.source(options);
                P2pSource second = b.source(options)) {
            SyncReport r = new SyncEngine(
                            wallet,
                            List.of(first, second, new MemorySource("honest", chain)),
                            SyncEngine.Options.defaults())
                    .sync();

            assertEquals(SourceFault.Kind.FAILED, fault(r, first.name()).kind());
            assertEquals(SourceFault.Kind.FAILED, fault(r, second.name()).kind());
            assertEquals(Coin.COIN, wallet.ledger().balance(true));
            assertEquals(3, a.accepted.size(), "three tries of the first peer");
            // One after the other, the second peer would hear from us only after the first peer's last try.
            assertTrue(
                    b.accepted.get(0) < a.accepted.get(2),
                    "the second peer was first asked after the first peer's last try");
        }
    }

    @Test
    void aSilentPeerDelaysTheSyncByItsSilenceNotByItsTimeout() throws IOException {
        // A generous timeout, as a user would set; only the silence is short.
        P2pSource.Options options =
                P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(30)).withSilence(Duration.ofMillis(100));
        try (SilentPeer silent = new SilentPeer();
                P2pSource p2p = silent.source(options)) {
            long t0 = System.nanoTime();
            SyncReport r = new SyncEngine(
                            wallet, List.of(p2p, new MemorySource("honest", chain)), SyncEngine.Options.defaults())
                    .sync();
            long millis = (System.nanoTime() - t0) / 1_000_000;

            SourceFault f = fault(r, p2p.name());
            assertEquals(SourceFault.Kind.FAILED, f.kind(), f.toString());
            assertTrue(f.reason().contains("silent for"), f.toString());
            assertEquals(Coin.COIN, wallet.ledger().balance(true));
            // 100 + 200 + 400 ms of silence; one 30 s timeout would be 30 000 ms.
            assertTrue(millis < 10_000, "took " + millis + " ms: " + r.dropped());
        }
    }
}
