package org.blockfilter.regtest.embedded;

import org.blockfilter.server.node.EmbeddedNodeLauncher;

import java.net.URI;

/**
 * The server's {@code --embedded} mode, provided through {@link java.util.ServiceLoader}: starts an
 * {@link EmbeddedNode} on a free 127.0.0.1 port with a deterministic demo chain, then lets its
 * clock follow system time so blocks mined later look current. Stateless; thread-safe.
 */
public final class EmbeddedLauncher implements EmbeddedNodeLauncher {

    /** For {@link java.util.ServiceLoader}. */
    public EmbeddedLauncher() {
    }

    @Override
    public Handle start(int demoBlocks, long seed) {
        SettableClock clock = SettableClock.at(DemoChain.START);
        EmbeddedNode node = EmbeddedNode.start(EmbeddedNode.Config.defaults().withClock(clock));
        try {
            DemoChain.build(node, clock, demoBlocks, seed);
            clock.followSystemTime();
        } catch (RuntimeException e) {
            node.close();
            throw e;
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
