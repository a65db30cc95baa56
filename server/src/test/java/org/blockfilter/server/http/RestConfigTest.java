package org.blockfilter.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.blockfilter.server.http.RestConfig.Compression;
import org.junit.jupiter.api.Test;

class RestConfigTest {

    @Test
    void eachCopyChangesOnlyItsSetting() {
        RestConfig d = RestConfig.defaults();
        RestConfig changed = d.withHost("0.0.0.0")
                .withPort(8157)
                .withNetwork("main")
                .withBuriedDepth(100)
                .withBip37WorkBudget(7)
                .withBip37CpuBudgetNanos(9)
                .withCompression(Compression.GZIP);
        assertEquals(
                new RestConfig(
                        "0.0.0.0",
                        8157,
                        "main",
                        100,
                        d.tipMaxAgeSeconds(),
                        d.retryAfterSeconds(),
                        d.bip37MaxBlocks(),
                        7,
                        9,
                        d.blockCacheBytes(),
                        d.gzipMinBytes(),
                        Compression.GZIP),
                changed);
        assertEquals("127.0.0.1", d.host(), "the original is unchanged");
    }

    @Test
    void copiesAreValidatedLikeTheConstructor() {
        RestConfig d = RestConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> d.withPort(65_536));
        assertThrows(IllegalArgumentException.class, () -> d.withBuriedDepth(-1));
        assertThrows(IllegalArgumentException.class, () -> d.withBip37WorkBudget(0));
        assertThrows(NullPointerException.class, () -> d.withHost(null));
    }
}
