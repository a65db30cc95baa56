package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.server.http.RestConfig;
import org.blockfilter.server.http.RestServer;
import org.blockfilter.server.index.FilterIndexer;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.node.RpcNodeGateway;
import org.blockfilter.server.read.StoreFilterIndexReader;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.store.IndexStore;

/**
 * Our server (RocksDB index + REST) on a regtest node, for wallet tests: indexes the node's chain
 * once at start and again on {@link #reindex()}, serves on 127.0.0.1 (free port). {@link #close()}
 * stops it and deletes the index directory.
 */
final class ServerOnNode implements AutoCloseable {
    private final Path dir;
    private final IndexStore store;
    private final FilterIndexer indexer;
    private final RestServer rest;
    private final BitcoinRpc rpc;
    private org.blockfilter.server.p2p.P2pServer p2p;

    ServerOnNode(RegtestNode node) throws IOException {
        this(node, node.rpcUri());
    }

    /** As {@link #ServerOnNode(RegtestNode)}, reaching the node's RPC at {@code rpcUri} (e.g. a proxy). */
    ServerOnNode(RegtestNode node, URI rpcUri) throws IOException {
        dir = Files.createTempDirectory("blockfilter-wallet-it-");
        rpc = new BitcoinRpc(JsonRpcClient.create(rpcUri, node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(60)));
        store = IndexStore.open(dir.resolve("index"));
        indexer = new FilterIndexer(store, new RpcBlockSource(rpc), Duration.ofSeconds(1));
        indexer.syncOnce();
        rest = RestServer.start(RestConfig.defaults(), new StoreFilterIndexReader(store), new RpcNodeGateway(rpc));
    }

    URI baseUri() {
        return rest.baseUri();
    }

    /** The RocksDB index directory (open here as the primary instance). */
    Path indexDir() {
        return dir.resolve("index");
    }

    /** Starts a BIP 157 P2P listener on the same index (127.0.0.1, free port); returns its port. */
    int startP2p() throws IOException {
        p2p = org.blockfilter.server.p2p.P2pServer.start(
                org.blockfilter.server.p2p.P2pConfig.forChain(org.blockfilter.filters.chain.Chain.REGTEST),
                new StoreFilterIndexReader(store),
                new RpcNodeGateway(rpc),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        return p2p.port();
    }

    /** Runs {@code blockfilter-server export --blocks} on this index (read as a secondary) into {@code out}. */
    int export(RegtestNode node, Path out, int safetyDepth) {
        String url = "http://" + java.net.URLEncoder.encode(node.rpcUser(), java.nio.charset.StandardCharsets.UTF_8)
                + ":" + java.net.URLEncoder.encode(node.rpcPassword(), java.nio.charset.StandardCharsets.UTF_8)
                + "@127.0.0.1:" + node.rpcUri().getPort();
        return org.blockfilter.server.ServerMain.run(
                "export",
                "--data-dir",
                indexDir().toString(),
                "--out",
                out.toString(),
                "--node",
                url,
                "--blocks",
                "--safety-depth",
                "" + safetyDepth);
    }

    /** Indexes what the node mined since. */
    void reindex() {
        indexer.syncOnce();
    }

    @Override
    public void close() throws IOException {
        if (p2p != null) {
            p2p.close();
        }
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
