package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The node run alone is the server's live demo: block times end now, and it mines at the server's default interval. */
class EmbeddedNodeMainTest {
    @Test
    void byDefaultItMinesAtTheServersDemoInterval() {
        EmbeddedNodeMain.Parsed p = EmbeddedNodeMain.parse(new String[0]);
        assertEquals(
                Duration.ofSeconds(LiveDemo.DEFAULT_BLOCK_INTERVAL_SECONDS),
                p.options().blockInterval());
        assertEquals(Optional.empty(), p.options().start(), "block times counted back from now");
        assertEquals(200, p.options().blocks());
    }

    @Test
    void aNodeRunAloneHasACurrentTipAndKeepsMining() {
        Instant before = Instant.now();
        EmbeddedNodeMain.Parsed p = EmbeddedNodeMain.parse(
                new String[] {"--blocks", "5", "--block-interval", "1", "--rpcuser", "u", "--rpcpassword", "p"});
        try (LiveDemo demo = LiveDemo.start(p.options(), p.config())) {
            EmbeddedNode node = demo.node();
            assertEquals("u", node.rpcUser());
            Instant tip = node.block(node.tipHash()).orElseThrow().time();
            assertTrue(!tip.isBefore(before.minus(Duration.ofHours(1))), "tip is current: " + tip);
            // Generous for a loaded machine: two blocks at one a second within 60 s.
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (node.tipHeight() < 7) {
                assertTrue(System.nanoTime() < deadline, "mined to " + node.tipHeight() + " in 60 s");
                LockSupport.parkNanos(50_000_000);
            }
            assertTrue(demo.minerFailure().isEmpty());
            String banner = banner(demo, p.options());
            assertTrue(banner.contains("a block every 1 s (--block-interval)"), banner);
            assertTrue(banner.contains("url:      http://u:p@127.0.0.1:"), banner);
        }
    }

    @Test
    void aGivenStartAndNoIntervalGiveTheSameFixedChainTwice() {
        String[] args = {"--blocks", "3", "--start", "2025-01-01T00:00:00Z", "--block-interval", "0"};
        EmbeddedNodeMain.Parsed p = EmbeddedNodeMain.parse(args);
        try (LiveDemo a = LiveDemo.start(p.options(), p.config());
                LiveDemo b =
                        LiveDemo.start(p.options(), EmbeddedNodeMain.parse(args).config())) {
            assertEquals(a.node().tipHash(), b.node().tipHash());
            // PacedNode steps the clock one interval before each block.
            Instant first = a.node()
                    .block(a.node().blockHash(1).orElseThrow())
                    .orElseThrow()
                    .time();
            Instant start = Instant.parse("2025-01-01T00:00:00Z");
            assertTrue(!first.isBefore(start) && !first.isAfter(start.plus(DemoChain.BLOCK_INTERVAL)), "" + first);
            assertTrue(banner(a, p.options()).contains("none (--block-interval 0)"));
        }
    }

    @Test
    void theStandardScenarioIsLiveToo() {
        EmbeddedNodeMain.Parsed p = EmbeddedNodeMain.parse(new String[] {"--scenario", "standard"});
        assertTrue(p.options().standardScenario());
        assertEquals(
                Duration.ofSeconds(LiveDemo.DEFAULT_BLOCK_INTERVAL_SECONDS),
                p.options().blockInterval());
        assertEquals(300, p.options().spec().blocks());
    }

    @Test
    void badOptionsAreRefusedNamingTheOption() {
        assertRefused("--block-interval must be 0..86400", "--block-interval", "-1");
        assertRefused("--block-interval must be 0..86400", "--block-interval", "86401");
        assertRefused("--block-interval takes a whole number", "--block-interval", "ten");
        assertRefused("--start takes a UTC time", "--start", "yesterday");
        assertRefused("--blocks must be in 0..100000", "--blocks", "100001");
        assertRefused("--rpcport needs a value", "--rpcport");
        assertRefused("unknown option --mine", "--mine");
        assertNull(EmbeddedNodeMain.parse(new String[] {"--help"}));
    }

    private static void assertRefused(String says, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmbeddedNodeMain.parse(args));
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    private static String banner(LiveDemo demo, LiveDemo.Options options) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        EmbeddedNodeMain.printBanner(new PrintStream(b, true, StandardCharsets.UTF_8), demo, options, Duration.ZERO);
        return b.toString(StandardCharsets.UTF_8);
    }
}
