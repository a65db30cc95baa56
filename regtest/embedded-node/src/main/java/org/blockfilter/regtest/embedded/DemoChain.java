package org.blockfilter.regtest.embedded;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;

/**
 * The embedded node's demo chain: a scenario from {@link ScenarioRunner} (wallets paying each
 * other with every output kind, multi-input spends, change, reuse, empty blocks, a reorg on long
 * chains) mined with block times ten minutes apart from a start time: {@link #START} for a fixed
 * chain, or {@link #startEndingNow} so the last block is now. The same spec and start give the
 * same chain, byte for byte. Stateless.
 */
final class DemoChain {
    static final Instant START = Instant.parse("2025-01-01T00:00:00Z");
    static final Duration BLOCK_INTERVAL = Duration.ofMinutes(10);

    private DemoChain() {}

    /**
     * The demo scenario for {@code blocks} blocks: the standard scenario's mix with 2 to 8
     * transactions a block, so a demo starts in seconds; its reorg only if the chain reaches it.
     */
    static ScenarioSpec spec(int blocks, long seed) {
        ScenarioSpec standard = ScenarioSpec.standard(seed).withBlocks(blocks).withTxsPerBlock(2, 8);
        boolean reorgFits = standard.reorgs().stream().allMatch(r -> r.atHeight() <= blocks);
        return reorgFits ? standard : standard.withReorgs(List.of());
    }

    /** A node on 127.0.0.1 mining to the spec's address, with a clock standing at {@link #START}. */
    static EmbeddedNode startFor(ScenarioSpec spec, EmbeddedNode.Config base, SettableClock clock) {
        return EmbeddedNode.start(base.withClock(clock).withMiningAddress(spec.miningAddress()));
    }

    /**
     * The start time for a chain of {@code blocks} whose last block is timed now (seconds
     * precision): a reorg mines its branch at one clock reading, so the chain spans at most
     * {@code blocks} intervals and never ends in the future.
     */
    static Instant startEndingNow(int blocks) {
        return LiveDemo.countBack(blocks, Instant.now());
    }

    /** {@link #build(EmbeddedNode, SettableClock, ScenarioSpec, Instant, Consumer)} from {@link #START}. */
    static GroundTruth build(EmbeddedNode node, SettableClock clock, ScenarioSpec spec, Consumer<String> progress) {
        return build(node, clock, spec, START, progress);
    }

    /**
     * Builds {@code spec} on {@code node} (fresh, started by {@link #startFor}) with block times
     * from {@code start}, then lets the clock follow system time, so blocks mined afterwards
     * look current.
     */
    static GroundTruth build(
            EmbeddedNode node, SettableClock clock, ScenarioSpec spec, Instant start, Consumer<String> progress) {
        clock.set(start);
        GroundTruth truth = ScenarioRunner.run(new PacedNode(node, clock, BLOCK_INTERVAL), spec, progress);
        clock.followSystemTime();
        return truth;
    }
}
