package org.blockfilter.wallet.cli;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Network;
import org.bitcoinj.core.NetworkParameters;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.ExportSource;
import org.blockfilter.wallet.source.rest.RestSource;

/** Opens the chain sources named on the command line. */
final class Transports {
    private Transports() {}

    static List<ChainSource> open(
            List<String> servers, List<String> exports, List<String> peers, Network network, Duration timeout) {
        if (servers.isEmpty() && exports.isEmpty() && peers.isEmpty()) {
            throw new IllegalArgumentException("give at least one --server URL, --export URL or --peer host:port");
        }
        List<ChainSource> out = new ArrayList<>();
        try {
            for (String s : servers) {
                out.add(RestSource.create(URI.create(s), timeout));
            }
            for (String e : exports) {
                out.add(ExportSource.create(URI.create(e), timeout));
            }
            for (String p : peers) {
                int colon = p.lastIndexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("--peer must be host:port, got " + p);
                }
                int port = Integer.parseInt(p.substring(colon + 1));
                // Connected and resolved on first use, so an unreachable peer is one failed source of the sync.
                out.add(P2pSource.open(
                        InetSocketAddress.createUnresolved(p.substring(0, colon), port),
                        NetworkParameters.of(network),
                        P2pSource.Options.DEFAULT.withTimeout(timeout)));
            }
        } catch (RuntimeException e) {
            out.forEach(ChainSource::close);
            throw e;
        }
        return out;
    }
}
