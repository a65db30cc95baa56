package org.blockfilter.wallet.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/** The one way to say how an engine runs: defaults, each {@code withX} changing only its part, no null parts. */
class SyncEngineOptionsTest {
    @Test
    void defaultsHaveTheDefaultFetchPolicyAndNoListener() {
        SyncEngine.Options options = SyncEngine.Options.defaults();

        assertEquals(FetchPolicy.DEFAULT, options.fetchPolicy());
        assertNull(options.listener());
    }

    @Test
    void eachCopyChangesOnlyItsPart() {
        SyncProgress.Listener listener = progress -> {};
        LongConsumer pause = ms -> {};
        SyncEngine.Options options = SyncEngine.Options.defaults()
                .withListener(listener)
                .withFetchPolicy(FetchPolicy.NONE)
                .withPause(pause);

        assertSame(listener, options.listener());
        assertEquals(FetchPolicy.NONE, options.fetchPolicy());
        assertSame(pause, options.pause());
        assertSame(pause, options.withFetchPolicy(FetchPolicy.DEFAULT).pause());
        assertSame(listener, options.withPause(ms -> {}).listener());
    }

    @Test
    void refusesANullFetchPolicyOrPause() {
        SyncEngine.Options options = SyncEngine.Options.defaults();

        assertThrows(NullPointerException.class, () -> options.withFetchPolicy(null));
        assertThrows(NullPointerException.class, () -> options.withPause(null));
    }

    @Test
    void anEngineNeedsAtLeastOneSource() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new SyncEngine((SyncTarget) null, List.of(), SyncEngine.Options.defaults()));
        assertEquals("at least one chain source is required", e.getMessage());
    }
}
