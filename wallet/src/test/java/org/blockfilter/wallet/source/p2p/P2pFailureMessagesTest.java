package org.blockfilter.wallet.source.p2p;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.source.SourceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a P2P failure says: it names what happened (no name, refused, closed, silent) and guesses no peer software. */
class P2pFailureMessagesTest {
    private static final P2pSource.Options FAST =
            P2pSource.Options.DEFAULT.withTimeout(Duration.ofMillis(500)).withAttempts(2);

    private final ExecutorService peers = Executors.newCachedThreadPool();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        peers.shutdownNow();
    }

    private static SourceException connectFails(InetSocketAddress peer) {
        return assertThrows(SourceException.class, () -> P2pSource.connect(peer, Chain.REGTEST, FAST));
    }

    private static void assertNamesNoSoftware(SourceException e) {
        assertFalse(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("btcd"), e.getMessage());
    }

    /** A listener whose every connection is handed to {@code peer} on its own thread. */
    private InetSocketAddress listener(PeerBehaviour peer) throws IOException {
        ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        open.add(server);
        peers.submit(() -> {
            while (!server.isClosed()) {
                Socket s = server.accept();
                open.add(s);
                peer.serve(s);
            }
            return null;
        });
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    private interface PeerBehaviour {
        void serve(Socket s) throws IOException;
    }

    @Test
    void aHostNameThatDoesNotResolveIsSaidSo() {
        SourceException e = connectFails(new InetSocketAddress("no-such-host.invalid", 18444));
        assertTrue(e.getMessage().contains("no-such-host.invalid did not resolve"), e.getMessage());
        assertNamesNoSoftware(e);
    }

    @Test
    void aRefusedConnectionIsSaidSo() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        SourceException e = connectFails(new InetSocketAddress("127.0.0.1", closedPort));
        assertTrue(e.getMessage().contains("refused the connection"), e.getMessage());
        assertNamesNoSoftware(e);
    }

    @Test
    void aPeerThatClosesTheConnectionIsSaidToHaveClosedIt() throws IOException {
        InetSocketAddress peer = listener(Socket::close);
        SourceException e = connectFails(peer);
        assertTrue(
                e.getMessage().contains("the peer closed the connection during the version handshake"), e.getMessage());
        assertNamesNoSoftware(e);
    }

    @Test
    void aSilentPeerIsSaidToBeSilentAndForHowLong() throws IOException {
        InetSocketAddress peer = listener(s -> {}); // accepts, then never says a word
        SourceException e = connectFails(peer);
        assertTrue(e.getMessage().contains("the peer was silent for"), e.getMessage());
        assertTrue(e.getMessage().contains("no answer after 2 attempts"), e.getMessage());
        assertNamesNoSoftware(e);
    }
}
