package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.blockfilter.wallet.sync.SyncProgress;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    private static String lastLine(SyncProgress... steps) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        for (SyncProgress p : steps) {
            bar.onProgress(p);
        }
        String all = bytes.toString(StandardCharsets.UTF_8).strip();
        return all.substring(all.lastIndexOf('\r') + 1);
    }

    @Test
    void anIncrementalSyncWithNothingToScanEndsAtOneHundredPercent() {
        // Scanned to 300 before; the tip is still 300: the scan starts at 301 and has nothing to do.
        String line = lastLine(
                new SyncProgress("filters", 300, 300, 300, 300, 0, 301),
                new SyncProgress("done", 300, 300, 300, 300, 0, 301));
        assertTrue(line.contains("100% done"), line);
        assertTrue(line.contains("filters 0/0"), line);
        assertTrue(line.startsWith("[" + "#".repeat(30) + "]"), line);
    }

    @Test
    void anIncrementalSyncOfOneNewBlockEndsAtOneHundredPercent() {
        String line = lastLine(new SyncProgress("done", 301, 301, 301, 301, 0, 301));
        assertTrue(line.contains("100% done"), line);
        assertTrue(line.contains("filters 1/1"), line);
    }

    @Test
    void aScanHalfwayShowsHalf() {
        String line = lastLine(new SyncProgress("filters", 200, 200, 99, 200, 3, 0));
        assertEquals(true, line.contains(" 49% filters") || line.contains(" 50% filters"), line);
        assertTrue(line.contains("filters 100/201"), line);
    }
}
