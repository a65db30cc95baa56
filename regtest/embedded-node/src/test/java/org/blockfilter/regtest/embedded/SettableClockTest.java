package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class SettableClockTest {

    @Test
    void zonedViewSharesTheInstantAndFollowsMoves() {
        SettableClock clock = SettableClock.at(Instant.parse("2025-01-01T00:00:00Z"));
        Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));

        assertEquals(ZoneId.of("Europe/Paris"), paris.getZone());
        assertEquals(clock.instant(), paris.instant());

        clock.advance(Duration.ofMinutes(10));
        assertEquals(Instant.parse("2025-01-01T00:10:00Z"), paris.instant());
    }
}
