package org.blockfilter.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when opening the index dropped data from a damaged write-ahead log. RocksDB's default
 * recovery (point in time) stops replaying the log at its first damaged record and silently drops
 * every later write; the indexer then indexes those blocks again. Before the real open the log
 * files are read (RocksDB's log format: 32 KiB blocks of records with a 7-byte header, a masked
 * CRC-32C of type and payload, a length and a type) and every write batch from the first damaged
 * record on is counted: each is one block (the indexer writes one batch per block). Reading the
 * logs costs a sequential read of at most a few of them per start. Stateless.
 */
final class WalRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(WalRecovery.class);
    private static final int BLOCK = 32 * 1024;
    private static final int HEADER = 7;
    private static final int FULL = 1;
    private static final int FIRST = 2;
    private static final int MASK_DELTA = 0xa282ead8;

    private WalRecovery() {}

    /** What the logs hold from their first damaged record on; empty if none is damaged. */
    record Damage(Path file, long offset, int batches) {}

    /** Reads every write-ahead log of {@code dir}, oldest first; never throws. */
    static Optional<Damage> scan(Path dir) {
        List<Path> logs;
        try (Stream<Path> files = Files.list(dir)) {
            logs = files.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return Optional.empty();
        }
        Path damagedFile = null;
        long damagedAt = -1;
        int batches = 0;
        for (Path log : logs) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(log);
            } catch (IOException e) {
                continue;
            }
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            int pos = 0;
            while (pos + HEADER <= bytes.length) {
                int blockEnd = Math.min(bytes.length, (pos / BLOCK + 1) * BLOCK);
                if (blockEnd - pos < HEADER) {
                    pos = blockEnd; // the block's trailer
                    continue;
                }
                int crc = b.getInt(pos);
                int length = b.getShort(pos + 4) & 0xffff;
                int type = bytes[pos + 6] & 0xff;
                if (type == 0 && length == 0) {
                    pos = blockEnd; // zeroes: preallocated space, nothing written here
                    continue;
                }
                boolean fits = pos + HEADER + length <= blockEnd;
                boolean sound = fits && crc == masked(bytes, pos + 6, length + 1);
                if (!sound && damagedFile == null) {
                    damagedFile = log;
                    damagedAt = pos;
                    batches++; // the damaged record began a batch (or was part of one)
                } else if (sound && damagedFile != null && (type == FULL || type == FIRST)) {
                    batches++;
                }
                // A record whose length still fits is stepped over; else the rest of the block is lost.
                pos = fits ? pos + HEADER + length : blockEnd;
            }
        }
        return damagedFile == null ? Optional.empty() : Optional.of(new Damage(damagedFile, damagedAt, batches));
    }

    private static int masked(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        int c = (int) crc.getValue();
        return ((c >>> 15) | (c << 17)) + MASK_DELTA;
    }

    /** Logs a WARN naming the damaged log and how many blocks the open dropped and will index again. */
    static void warn(Path dir, Damage damage, Optional<IndexStore.ChainTip> recovered) {
        int height = recovered.map(IndexStore.ChainTip::height).orElse(-1);
        LOG.warn(
                "event=wal_recovery_dropped_data dir={} file={} offset={} recovered_height={} blocks_to_reindex={}",
                dir,
                damage.file().getFileName(),
                damage.offset(),
                height,
                damage.batches());
    }
}
