package org.blockfilter.regtest.embedded;

import java.net.URI;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.server.node.EmbeddedNodeLauncher;

/**
 * The server's {@code --embedded} mode, provided through {@link java.util.ServiceLoader}: starts an
 * {@link EmbeddedNode} on a free 127.0.0.1 port with a deterministic demo chain built by the
 * scenario generator ({@link DemoChain}), whose clock then follows system time. Stateless;
 * thread-safe.
 */
public final class EmbeddedLauncher implements EmbeddedNodeLauncher {

    /** For {@link java.util.ServiceLoader}. */
    public EmbeddedLauncher() {}

    @Override
    public Handle start(int demoBlocks, long seed) {
        if (demoBlocks < 0) {
            throw new IllegalArgumentException("demoBlocks must not be negative: " + demoBlocks);
        }
        SettableClock clock = SettableClock.at(DemoChain.START);
        EmbeddedNode node;
        if (demoBlocks == 0) {
            node = EmbeddedNode.start(EmbeddedNode.Config.defaults().withClock(clock));
            clock.followSystemTime();
        } else {
            ScenarioSpec spec = DemoChain.spec(demoBlocks, seed);
            node = DemoChain.startFor(spec, EmbeddedNode.Config.defaults(), clock);
            try {
                DemoChain.build(node, clock, spec, line -> {});
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }
        return new Handle() {
            @Override
            public URI rpcUri() {
                return node.rpcUri();
            }

            @Override
            public String rpcUser() {
                return node.rpcUser();
            }

            @Override
            public String rpcPassword() {
                return node.rpcPassword();
            }

            @Override
            public void close() {
                node.close();
            }
        };
    }
}
