package org.blockfilter.wallet.cli;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.net.Dialer;
import org.blockfilter.wallet.source.net.SocksProxy;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.p2p.P2pTransport;
import org.blockfilter.wallet.source.rest.ExportSource;
import org.blockfilter.wallet.source.rest.RestSource;

/** Opens the chain sources named on the command line. */
final class Transports {
    private Transports() {}

    static List<ChainSource> open(
            List<String> servers,
            List<String> exports,
            List<String> peers,
            Chain network,
            Duration timeout,
            P2pTransport transport) {
        return open(servers, exports, peers, network, timeout, transport, Optional.empty());
    }

    /** With a proxy, each source gets its own dialer (its own credentials when the proxy isolates). */
    static List<ChainSource> open(
            List<String> servers,
            List<String> exports,
            List<String> peers,
            Chain network,
            Duration timeout,
            P2pTransport transport,
            Optional<SocksProxy> proxy) {
        Supplier<Dialer> dialer = () -> proxy.map(SocksProxy::dialerForSource).orElse(Dialer.DIRECT);
        if (servers.isEmpty() && exports.isEmpty() && peers.isEmpty()) {
            throw new IllegalArgumentException("give at least one --server URL, --export URL or --peer host[:port]");
        }
        List<ChainSource> out = new ArrayList<>();
        try {
            for (String s : servers) {
                out.add(RestSource.create(URI.create(s), timeout, RestSource.Limits.DEFAULT, dialer.get()));
            }
            for (String e : exports) {
                out.add(ExportSource.create(URI.create(e), timeout, dialer.get()));
            }
            for (String p : peers) {
                // Connected and resolved on first use, so an unreachable peer is one failed source of the sync.
                out.add(P2pSource.open(
                        peerAddress(p, network),
                        network,
                        P2pSource.Options.DEFAULT
                                .withTimeout(timeout)
                                .withTransport(transport)
                                .withDialer(dialer.get())));
            }
        } catch (RuntimeException e) {
            out.forEach(ChainSource::close);
            throw e;
        }
        return out;
    }

    /**
     * {@code host:port}, {@code [v6-address]:port}, or a host (or bare IPv6 address) alone, which
     * means the network's default P2P port; unresolved (the source resolves it when it connects).
     */
    static InetSocketAddress peerAddress(String peer, Chain network) {
        int colon = peer.lastIndexOf(':');
        boolean hasPort =
                colon >= 0 && (peer.startsWith("[") ? peer.lastIndexOf(']') < colon : peer.indexOf(':') == colon);
        String host = hasPort ? peer.substring(0, colon) : peer;
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isBlank()) {
            throw new IllegalArgumentException("--peer must be host[:port], got '" + peer + "'");
        }
        if (!hasPort) {
            return InetSocketAddress.createUnresolved(host, network.defaultP2pPort());
        }
        int port;
        try {
            port = Integer.parseInt(peer.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException(
                    "--peer port must be 1..65535, got '" + peer.substring(colon + 1) + "' in " + peer);
        }
        return InetSocketAddress.createUnresolved(host, port);
    }
}
