package org.blockfilter.server.index;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the server last learned from its node, so that {@code status} and index reads never wait
 * for it: the node's height from the last successful call and when that was, whether the node is
 * failing and since when, the last fault, and a count of faults by kind. Written by the indexer
 * and the node gateway, read by status and metrics. Thread-safe.
 */
public final class NodeHealth {
    private final Clock clock;
    private final Map<Fault.Kind, AtomicLong> counts = new EnumMap<>(Fault.Kind.class);
    private volatile Known known;
    private volatile Failing failing;

    private record Known(int height, Instant at) {}

    private record Failing(Instant since, Fault last) {}

    /**
     * A snapshot.
     *
     * @param nodeHeight   the node's height at the last successful call; empty before one
     * @param nodeHeightAt when that was
     * @param failingSince when the node began failing; empty while it answers properly
     * @param lastFault    the last fault while failing
     */
    public record Snapshot(
            Optional<Integer> nodeHeight,
            Optional<Instant> nodeHeightAt,
            Optional<Instant> failingSince,
            Optional<Fault> lastFault) {
        /** Milliseconds since the node's height was learned, at {@code now}. */
        public Optional<Long> nodeHeightAgeMillis(Instant now) {
            return nodeHeightAt.map(at -> Math.max(0, Duration.between(at, now).toMillis()));
        }
    }

    public NodeHealth() {
        this(Clock.systemUTC());
    }

    public NodeHealth(Clock clock) {
        this.clock = clock;
        for (Fault.Kind k : Fault.Kind.values()) {
            counts.put(k, new AtomicLong());
        }
    }

    /** An indexer pass ended well with the node at {@code height}: the node is not failing. */
    public void answered(int height) {
        heightSeen(height);
        failing = null;
    }

    /** The node answered {@code getblockcount} (or the like) with {@code height}. */
    public void heightSeen(int height) {
        known = new Known(height, clock.instant());
    }

    /** A call or a pass failed; node faults mark the node failing until it answers again. */
    public void failed(Fault fault) {
        counts.get(fault.kind()).incrementAndGet();
        if (fault.kind().isNode()) {
            Failing f = failing;
            failing = new Failing(f == null ? clock.instant() : f.since(), fault);
        }
    }

    /** Faults counted since start, of one kind. */
    public long count(Fault.Kind kind) {
        return counts.get(kind).get();
    }

    public Snapshot snapshot() {
        Known k = known;
        Failing f = failing;
        return new Snapshot(
                Optional.ofNullable(k).map(Known::height),
                Optional.ofNullable(k).map(Known::at),
                Optional.ofNullable(f).map(Failing::since),
                Optional.ofNullable(f).map(Failing::last));
    }

    public Instant now() {
        return clock.instant();
    }
}
