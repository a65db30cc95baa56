package org.blockfilter.regtest.embedded;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.ScenarioSpec;

/**
 * The server's demo: an {@link EmbeddedNode} with the demo chain ({@link DemoChain}) whose block
 * times are counted back from now, so the tip is current; then a block every
 * {@link Options#blockInterval()} (with whatever the mempool holds), and a {@link DemoFaucet}
 * that pays from the demo's coins and mines on demand. Closing it stops the miner and the node.
 * The server's demo mode and {@link EmbeddedNodeMain} (the node run alone) both run one.
 * Thread-safe.
 */
public final class LiveDemo implements AutoCloseable {
    /** Seconds between mined blocks unless told otherwise: the server's and the node's default. */
    public static final int DEFAULT_BLOCK_INTERVAL_SECONDS = 10;

    /** The longest block interval the command lines take: one a day. */
    public static final int MAX_BLOCK_INTERVAL_SECONDS = 86_400;

    /**
     * How to build the demo.
     *
     * @param blocks        demo chain length, 0..100,000 (0: genesis only); ignored with {@code standardScenario}
     * @param seed          the scenario's seed
     * @param start         the first block's time; empty: counted back from now so the last block is now
     * @param blockInterval how often to mine once the chain is built; {@link Duration#ZERO}: never (a fixed chain)
     * @param standardScenario the 300-block {@link ScenarioSpec#standard standard scenario} (8-16
     *                      transactions a block) instead of the demo chain
     */
    public record Options(
            int blocks, long seed, Optional<Instant> start, Duration blockInterval, boolean standardScenario) {
        public Options {
            if (blocks < 0) {
                throw new IllegalArgumentException("blocks must not be negative: " + blocks);
            }
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(blockInterval, "blockInterval");
            if (blockInterval.isNegative()) {
                throw new IllegalArgumentException("blockInterval must not be negative: " + blockInterval);
            }
        }

        /** The demo chain of {@code blocks} blocks. */
        public Options(int blocks, long seed, Optional<Instant> start, Duration blockInterval) {
            this(blocks, seed, start, blockInterval, false);
        }

        /** The same with the standard scenario instead of the demo chain. */
        public Options withStandardScenario() {
            return new Options(blocks, seed, start, blockInterval, true);
        }

        ScenarioSpec spec() {
            return standardScenario ? ScenarioSpec.standard(seed) : DemoChain.spec(Math.max(1, blocks), seed);
        }

        boolean empty() {
            return blocks == 0 && !standardScenario;
        }
    }

    private final EmbeddedNode node;
    private final DemoFaucet faucet;
    private final int scenarioTransactions;
    private final ScheduledExecutorService miner;
    private final AtomicReference<RuntimeException> minerFailure = new AtomicReference<>();

    private LiveDemo(EmbeddedNode node, DemoFaucet faucet, int scenarioTransactions, Duration interval) {
        this.node = node;
        this.faucet = faucet;
        this.scenarioTransactions = scenarioTransactions;
        if (interval.isZero()) {
            this.miner = null;
            return;
        }
        this.miner = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "demo-miner");
            t.setDaemon(true);
            return t;
        });
        long millis = Math.max(1, interval.toMillis());
        miner.scheduleAtFixedRate(this::mineOne, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Builds the demo chain and starts mining; the node listens on a free 127.0.0.1 port. */
    public static LiveDemo start(Options options) {
        return start(options, EmbeddedNode.Config.defaults());
    }

    /** {@link #start(Options)} with the node's port and credentials from {@code base}. */
    public static LiveDemo start(Options options, EmbeddedNode.Config base) {
        ScenarioSpec spec = options.spec();
        int blocks = options.empty() ? 0 : spec.blocks();
        Instant start = options.start().orElseGet(() -> DemoChain.startEndingNow(blocks));
        SettableClock clock = SettableClock.at(start);
        EmbeddedNode node = DemoChain.startFor(spec, base, clock);
        try {
            if (options.empty()) {
                clock.followSystemTime();
                return new LiveDemo(node, DemoFaucet.empty(node, spec), 0, options.blockInterval());
            }
            GroundTruth truth = DemoChain.build(node, clock, spec, start, line -> {});
            return new LiveDemo(
                    node, DemoFaucet.of(node, truth), truth.transactions().size(), options.blockInterval());
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    public EmbeddedNode node() {
        return node;
    }

    public DemoFaucet faucet() {
        return faucet;
    }

    /** How many transactions the scenario put into the chain it built (0 for an empty chain). */
    public int scenarioTransactions() {
        return scenarioTransactions;
    }

    /** Why the miner stopped, if it did (the node was closed, or a block could not be mined). */
    public Optional<RuntimeException> minerFailure() {
        return Optional.ofNullable(minerFailure.get());
    }

    private void mineOne() {
        try {
            node.mine(1);
        } catch (RuntimeException e) {
            minerFailure.compareAndSet(null, e);
            throw e; // ends the schedule
        }
    }

    @Override
    public void close() {
        if (miner != null) {
            miner.shutdownNow();
            try {
                miner.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        node.close();
    }

    /** Seconds-precision instant {@code blocks} demo intervals before now. */
    static Instant countBack(int blocks, Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).minus(DemoChain.BLOCK_INTERVAL.multipliedBy(blocks));
    }
}
