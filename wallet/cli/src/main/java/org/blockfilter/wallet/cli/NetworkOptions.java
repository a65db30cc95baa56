package org.blockfilter.wallet.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.net.SocksProxy;
import org.blockfilter.wallet.source.p2p.P2pTransport;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

abstract class NetworkOptions {
    @ParentCommand
    WalletCli cli;

    @Option(
            names = "--server",
            description = "REST base URL of a blockfilter server, e.g. http://127.0.0.1:8157 (the server's default"
                    + " port; repeatable)")
    List<String> servers = new ArrayList<>();

    @Option(
            names = "--export",
            description = "base URL of a static export (blockfilter-server export) on any HTTP server (repeatable)")
    List<String> exports = new ArrayList<>();

    @Option(
            names = "--peer",
            description = "host[:port] of a BIP 157 node, e.g. 127.0.0.1:18444; without a port the network's"
                    + " default P2P port (repeatable)")
    List<String> peers = new ArrayList<>();

    @Option(
            names = "--p2p-transport",
            paramLabel = "auto|v2|v1",
            converter = P2pTransportConverter.class,
            description = "P2P transport for --peer: auto (BIP 324 v2, v1 for peers that do not speak it), v2 only,"
                    + " or v1 only (default: ${DEFAULT-VALUE})",
            defaultValue = "auto")
    P2pTransport p2pTransport;

    @Option(
            names = "--timeout",
            description = "per-request timeout in seconds (default: ${DEFAULT-VALUE})",
            defaultValue = "30")
    int timeoutSeconds;

    @Option(
            names = "--proxy",
            paramLabel = "socks5h://HOST:PORT",
            description = "open every connection of every source (--server, --export, --peer) through this SOCKS5"
                    + " proxy, host names resolved by the proxy, e.g. Tor's socks5h://127.0.0.1:9050")
    String proxy;

    @Option(
            names = "--proxy-isolate",
            description = "with --proxy: a fresh SOCKS username and password for each source, so Tor"
                    + " (IsolateSOCKSAuth) gives each its own circuit and exit")
    boolean proxyIsolate;

    List<ChainSource> open(Chain network) {
        if (proxyIsolate && proxy == null) {
            throw new IllegalArgumentException("--proxy-isolate needs --proxy");
        }
        Optional<SocksProxy> socks = proxy == null
                ? Optional.empty()
                : Optional.of(SocksProxy.parse(proxy).withIsolation(proxyIsolate));
        return Transports.open(
                servers, exports, peers, network, Duration.ofSeconds(timeoutSeconds), p2pTransport, socks);
    }

    /**
     * Whether to send: true with {@code yes}; otherwise asks on the console. Without a console it
     * prints the summary and refuses; a declined answer prints "not sent" and gives false.
     */
    boolean confirmed(String summary, boolean yes) {
        if (yes) {
            return true;
        }
        java.io.Console console = System.console();
        if (console == null) {
            cli.err.println(summary);
            throw new IllegalArgumentException("not sent: confirm with --yes when there is no console");
        }
        String answer = console.readLine("%s%nSend? [y/N] ", summary);
        if (answer == null || !answer.trim().equalsIgnoreCase("y")) {
            cli.err.println("not sent");
            return false;
        }
        return true;
    }
}
