package org.blockfilter.server;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.blockfilter.server.rpc.JsonRpcClient;
import picocli.CommandLine.Option;

/**
 * The options {@code verify}, {@code repair} and {@code export} share, as a picocli mixin: the index directory
 * and the node's cookie file. Each command declares {@code --node} itself (optional for {@code verify} and {@code
 * export}, required for {@code repair}). Mutable, filled by picocli; not thread-safe. {@code rpcCookie} is null when not given.
 */
final class IndexCommandOptions {
    @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The index directory.")
    Path dataDir;

    @Option(names = "--rpc-cookie", paramLabel = "FILE", description = "Bitcoin Core cookie file for --node.")
    Path rpcCookie;

    /** A JSON-RPC client for {@code node}, authenticated by the cookie file when one was given, else by the URL. */
    JsonRpcClient client(URI node) throws IOException {
        return rpcCookie != null
                ? JsonRpcClient.fromCookieFile(node, rpcCookie, Duration.ofSeconds(60))
                : JsonRpcClient.fromUrl(node, Duration.ofSeconds(60));
    }
}
