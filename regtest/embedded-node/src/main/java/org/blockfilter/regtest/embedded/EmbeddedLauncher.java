package org.blockfilter.regtest.embedded;

import org.blockfilter.regtest.scenario.ScenarioSpec;

/**
 * The server's {@code --embedded} mode (the server calls it directly): starts an
 * {@link EmbeddedNode} on a free 127.0.0.1 port with a deterministic demo chain built by the
 * scenario generator ({@link DemoChain}), whose clock then follows system time. Stateless;
 * thread-safe.
 */
public final class EmbeddedLauncher {
    private EmbeddedLauncher() {}

    /**
     * Starts a node serving Bitcoin Core's JSON-RPC dialect with a deterministic demo chain of about
     * {@code demoBlocks} blocks with realistic transactions (built from {@code seed}); {@code 0}
     * gives an empty chain. Closing the node stops it and deletes its temporary data.
     */
    public static EmbeddedNode start(int demoBlocks, long seed) {
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
        return node;
    }
}
