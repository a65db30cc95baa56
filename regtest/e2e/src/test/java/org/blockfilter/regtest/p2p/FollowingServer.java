package org.blockfilter.regtest.p2p;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.node.RpcNodeGateway;
import org.blockfilter.server.p2p.P2pConfig;
import org.blockfilter.server.p2p.P2pServer;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;

/**
 * Our whole server on a regtest node, as ServerMain runs it: the indexer following the node
 * (polling every 50 ms), REST and the BIP 157 P2P listener on free loopback ports, one index.
 * {@link #close()} stops everything and deletes the index.
 */
final class FollowingServer implements AutoCloseable {
    private final RegtestNode node;
    private final Path dir;
    private final IndexStore store;
    private final FilterIndexer indexer;
    private final StoreFilterIndexReader index;
    private final RestServer rest;
    private final P2pServer p2p;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    FollowingServer(RegtestNode node) throws IOException {
        this.node = node;
        dir = Files.createTempDirectory("blockfilter-p2p-it-");
        BitcoinRpc rpc = new BitcoinRpc(
                JsonRpcClient.create(node.rpcUri(), node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(60)));
        store = IndexStore.open(dir.resolve("index"));
        indexer = new FilterIndexer(store, new RpcBlockSource(rpc), Duration.ofMillis(50));
        indexer.syncOnce();
        indexer.start();
        index = new StoreFilterIndexReader(store);
        rest = RestServer.start(RestConfig.defaults(), index, new RpcNodeGateway(rpc));
        p2p = P2pServer.start(
                P2pConfig.forChain(Chain.REGTEST).withTipPollInterval(Duration.ofMillis(50)),
                index,
                new RpcNodeGateway(rpc),
                registry);
    }

    /** Connections the P2P listener settled on {@code transport} ("v1", or "v2" after its BIP 324 handshake). */
    double sessions(String transport) {
        var c = registry.find("blockfilter_p2p_sessions")
                .tag("transport", transport)
                .counter();
        return c == null ? 0 : c.count();
    }

    InetSocketAddress p2pAddress() {
        return new InetSocketAddress("127.0.0.1", p2p.port());
    }

    /** The index the server answers from. */
    StoreFilterIndexReader index() {
        return index;
    }

    URI baseUri() {
        return rest.baseUri();
    }

    /** Waits (at most a minute) until the index has the node's current tip. */
    void awaitNodeTip() {
        Sha256Hash tip = node.tipHash();
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!store.tip().map(t -> t.hash().equals(tip)).orElse(false)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the index did not reach the node's tip " + tip);
            }
            LockSupport.parkNanos(20_000_000); // polling the index tip, not ordering threads
        }
    }

    @Override
    public void close() throws IOException {
        p2p.close();
        rest.close();
        indexer.close();
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
