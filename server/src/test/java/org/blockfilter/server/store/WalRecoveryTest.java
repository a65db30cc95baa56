package org.blockfilter.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead logs are read by us only when RocksDB's own recovery finds them damaged: after a
 * clean close RocksDB replays them alone, and a damaged one is still scanned and reported.
 */
class WalRecoveryTest {
    @TempDir
    Path dir;

    @Test
    void aCleanCloseIsReopenedWithoutScanningTheLogsAndADamagedLogIsStillReported() throws Exception {
        try (IndexStore store = IndexStore.open(dir)) {
            TestBlocks.extend(store, 40, 1, 2_000);
        }
        assertTrue(walBytes() > 40 * 2_000, "the blocks are in the write-ahead log: " + walBytes());

        List<String> clean = logs(() -> {
            try (IndexStore store = IndexStore.open(dir)) {
                assertEquals(39, store.tip().orElseThrow().height(), "everything recovered");
                TestBlocks.extend(store, 40, 1, 2_000); // into a new log: the open flushed the old one
            }
            return null;
        });
        assertTrue(clean.stream().noneMatch(m -> m.startsWith("event=wal_scanned")), "logs scanned: " + clean);

        Path wal = newestWal();
        flip(wal, Files.size(wal) / 2);
        int[] height = {0};
        List<String> damaged = logs(() -> {
            try (IndexStore store = IndexStore.open(dir)) {
                height[0] = store.tip().orElseThrow().height();
            }
            return null;
        });
        assertTrue(height[0] < 79, "recovery dropped blocks: tip " + height[0]);
        assertTrue(damaged.stream().anyMatch(m -> m.startsWith("event=wal_scanned")), "logs not scanned: " + damaged);
        String warn = damaged.stream()
                .filter(m -> m.startsWith("event=wal_recovery_dropped_data"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no WARN about the dropped blocks: " + damaged));
        assertTrue(warn.contains("blocks_to_reindex=" + (79 - height[0])), warn);
        assertTrue(warn.contains("file=" + wal.getFileName()), warn);
    }

    /** The messages the store package logs (DEBUG and up) while {@code action} runs. */
    private static List<String> logs(Supplier<Void> action) {
        Logger logger = (Logger) LoggerFactory.getLogger("org.blockfilter.server.store");
        Level before = logger.getLevel();
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.DEBUG);
        try {
            action.get();
        } finally {
            logger.setLevel(before);
            logger.detachAppender(appender);
        }
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    private long walBytes() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            long sum = 0;
            for (Path f : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                sum += Files.size(f);
            }
            return sum;
        }
    }

    private Path newestWal() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".log"))
                    .max(Comparator.comparing(Path::toString))
                    .orElseThrow(() -> new IOException("no write-ahead log in " + dir));
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(~b & 0xff);
        }
    }
}
