package org.blockfilter.regtest.wallet;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.server.BlockfilterServer;
import org.blockfilter.server.BlockfilterServerBuilder;
import org.blockfilter.server.ServerMain;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;

/**
 * Our server (RocksDB index + REST, and P2P if asked) on a regtest node, for wallet tests, built by
 * {@link BlockfilterServer}: indexes the node's chain once at start and again on {@link
 * #reindex()}, serves on 127.0.0.1 (free ports). {@link #close()} stops it and deletes the index
 * directory.
 */
final class ServerOnNode implements AutoCloseable {
    private final Path dir;
    private final BlockfilterServer server;

    ServerOnNode(RegtestNode node) throws IOException {
        this(node, node.rpcUri());
    }

    /** As {@link #ServerOnNode(RegtestNode)}, reaching the node's RPC at {@code rpcUri} (e.g. a proxy). */
    ServerOnNode(RegtestNode node, URI rpcUri) throws IOException {
        this(node, rpcUri, false);
    }

    private ServerOnNode(RegtestNode node, URI rpcUri, boolean p2p) throws IOException {
        dir = Files.createTempDirectory("blockfilter-wallet-it-");
        BitcoinRpc rpc = new BitcoinRpc(
                JsonRpcClient.create(rpcUri, node.rpcUser(), node.rpcPassword(), Duration.ofSeconds(60)));
        BlockfilterServerBuilder builder = BlockfilterServer.builder()
                .node(rpc)
                .dataDir(indexDir())
                .pollInterval(Duration.ofSeconds(1))
                .indexing(BlockfilterServer.Indexing.CATCH_UP);
        if (p2p) {
            builder.p2p("127.0.0.1", 0);
        }
        try {
            server = builder.start();
        } catch (RuntimeException e) {
            deleteDir();
            throw e;
        }
    }

    /** As {@link #ServerOnNode(RegtestNode)}, with a BIP 157 P2P listener on the same index (127.0.0.1, free port). */
    static ServerOnNode withP2p(RegtestNode node) throws IOException {
        return new ServerOnNode(node, node.rpcUri(), true);
    }

    URI baseUri() {
        return server.restBaseUri().orElseThrow();
    }

    /** The RocksDB index directory (open here as the primary instance). */
    Path indexDir() {
        return dir.resolve("index");
    }

    /** The P2P listener's port ({@link #withP2p} servers only). */
    int p2pPort() {
        return server.p2pAddress().orElseThrow().getPort();
    }

    /** Runs {@code blockfilter-server export --blocks} on this index (read as a secondary) into {@code out}. */
    int export(RegtestNode node, Path out, int safetyDepth) {
        String url = "http://" + URLEncoder.encode(node.rpcUser(), StandardCharsets.UTF_8)
                + ":" + URLEncoder.encode(node.rpcPassword(), StandardCharsets.UTF_8)
                + "@127.0.0.1:" + node.rpcUri().getPort();
        return ServerMain.run(
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
        server.indexer().syncOnce();
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
