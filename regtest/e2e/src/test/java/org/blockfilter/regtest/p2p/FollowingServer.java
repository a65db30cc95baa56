package org.blockfilter.regtest.p2p;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.server.BlockfilterServer;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;

/**
 * Our whole server on a regtest node, as ServerMain runs it, built by {@link BlockfilterServer}:
 * the indexer following the node (polling every 50 ms), REST and the BIP 157 P2P listener on free
 * loopback ports, one index. {@link #close()} stops everything and deletes the index.
 */
final class FollowingServer implements AutoCloseable {
    private final RegtestNode node;
    private final Path dir;
    private final BlockfilterServer server;

    FollowingServer(RegtestNode node) throws IOException {
        this.node = node;
        dir = Files.createTempDirectory("blockfilter-p2p-it-");
        BitcoinRpc rpc = new BitcoinRpc(
                JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(60)));
        try {
            server = BlockfilterServer.builder()
                    .node(rpc)
                    .dataDir(dir.resolve("index"))
                    .pollInterval(Duration.ofMillis(50))
                    .indexing(BlockfilterServer.Indexing.CATCH_UP_THEN_FOLLOW)
                    .p2p("127.0.0.1", 0)
                    .p2pConfig(c -> c.withTipPollInterval(Duration.ofMillis(50)))
                    .start();
        } catch (RuntimeException e) {
            deleteDir();
            throw e;
        }
    }

    /** Connections the P2P listener settled on {@code transport} ("v1", or "v2" after its BIP 324 handshake). */
    double sessions(String transport) {
        var c = server.meterRegistry()
                .find("blockfilter_p2p_sessions")
                .tag("transport", transport)
                .counter();
        return c == null ? 0 : c.count();
    }

    InetSocketAddress p2pAddress() {
        return new InetSocketAddress(
                "127.0.0.1", server.p2pAddress().orElseThrow().getPort());
    }

    /** The index the server answers from. */
    FilterIndexReader index() {
        return server.reader();
    }

    URI baseUri() {
        return server.restBaseUri().orElseThrow();
    }

    /** Waits (at most a minute) until the index has the node's current tip. */
    void awaitNodeTip() {
        Sha256Hash tip = node.tipHash();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!server.reader().tip().hash().equals(tip)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the index did not reach the node's tip " + tip);
            }
            LockSupport.parkNanos(20_000_000); // polling the index tip, not ordering threads
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        deleteDir();
    }

    private void deleteDir() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
