package org.blockfilter.regtest.embedded;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A clock for the embedded node that a test or the demo-chain builder sets by hand, like
 * Bitcoin Core's {@code setmocktime}: block timestamps come from it, so a chain mined under the
 * same sequence of settings is the same byte for byte. {@link #followSystemTime()} hands over to
 * the system clock. Thread-safe; never returns null.
 */
public final class SettableClock extends Clock {
    private volatile Instant fixed;

    private SettableClock(Instant fixed) {
        this.fixed = fixed;
    }

    /** A clock standing still at {@code start} until moved. */
    public static SettableClock at(Instant start) {
        return new SettableClock(Objects.requireNonNull(start, "start"));
    }

    public void set(Instant instant) {
        this.fixed = Objects.requireNonNull(instant, "instant");
    }

    /** Moves the clock forward (it must be standing still). */
    public synchronized void advance(Duration d) {
        Instant now = fixed;
        if (now == null) {
            throw new IllegalStateException("the clock follows system time");
        }
        fixed = now.plus(d);
    }

    /** From now on, tell the system time. */
    public void followSystemTime() {
        this.fixed = null;
    }

    @Override
    public Instant instant() {
        Instant f = fixed;
        return f != null ? f : Instant.now();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /**
     * A view of this clock in another zone. Block times are instants, so a zone only changes how
     * they read; the view shares this clock's time, and moving this clock moves the view.
     */
    @Override
    public Clock withZone(ZoneId zone) {
        Objects.requireNonNull(zone, "zone");
        SettableClock source = this;
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return zone;
            }

            @Override
            public Clock withZone(ZoneId other) {
                return source.withZone(other);
            }

            @Override
            public Instant instant() {
                return source.instant();
            }
        };
    }
}
