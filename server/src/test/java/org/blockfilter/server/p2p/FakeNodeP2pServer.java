package org.blockfilter.server.p2p;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.server.http.P2pFixtures;
import org.blockfilter.server.node.FakeRpcNode;

/**
 * Our P2P listener on a 200-block regtest index, relaying to a {@link FakeRpcNode} on loopback
 * whose answers the test scripts: for the relay tests. Closes both. Not thread-safe.
 */
final class FakeNodeP2pServer implements AutoCloseable {
    private static final P2pFixtures.Fixture CHAIN = P2pFixtures.build(200);

    private final FakeRpcNode node;
    private final P2pServer server;
    private final PrometheusMeterRegistry registry;

    private FakeNodeP2pServer(FakeRpcNode node, P2pServer server, PrometheusMeterRegistry registry) {
        this.node = node;
        this.server = server;
        this.registry = registry;
    }

    /** The listener, with a gateway that waits {@code acceptWait} for relayed transactions. */
    static FakeNodeP2pServer start(FakeRpcNode.Handler answers, Duration acceptWait) throws IOException {
        FakeRpcNode node = FakeRpcNode.start(answers);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try {
            P2pServer server = P2pServer.start(
                    P2pConfig.forChain(Chain.REGTEST), CHAIN.index(), node.gateway(acceptWait), registry);
            return new FakeNodeP2pServer(node, server, registry);
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
    }

    P2pServer server() {
        return server;
    }

    /** The listener's metrics, in Prometheus text. */
    String metrics() {
        return registry.scrape();
    }

    @Override
    public void close() {
        server.close();
        node.close();
    }
}
