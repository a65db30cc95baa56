package org.blockfilter.regtest.embedded;

import java.time.Duration;
import java.util.Optional;

/**
 * A fixed demo chain for tests: an {@link EmbeddedNode} on a free 127.0.0.1 port with the
 * deterministic demo chain built by the scenario generator ({@link DemoChain}) from
 * {@link DemoChain#START}, whose clock then follows system time; nothing mines on its own. The
 * server's demo is a {@link LiveDemo}. Stateless; thread-safe.
 */
public final class EmbeddedLauncher {
    private EmbeddedLauncher() {}

    /**
     * Starts a node serving Bitcoin Core's JSON-RPC dialect with a deterministic demo chain of about
     * {@code demoBlocks} blocks with realistic transactions (built from {@code seed}); {@code 0}
     * gives an empty chain. Closing the node stops it.
     */
    public static EmbeddedNode start(int demoBlocks, long seed) {
        if (demoBlocks < 0) {
            throw new IllegalArgumentException("demoBlocks must not be negative: " + demoBlocks);
        }
        return LiveDemo.start(new LiveDemo.Options(demoBlocks, seed, Optional.of(DemoChain.START), Duration.ZERO))
                .node();
    }
}
