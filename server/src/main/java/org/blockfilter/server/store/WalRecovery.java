package org.blockfilter.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.rocksdb.RocksDBException;
import org.rocksdb.WALRecoveryMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when opening the index dropped data from a damaged write-ahead log. RocksDB's point-in-time
 * recovery stops replaying the log at its first damaged record and silently drops
 * every later write; the indexer then indexes those blocks again. Before that open the log
 * files are read (RocksDB's log format: 32 KiB blocks of records with a 7-byte header, a masked
 * CRC-32C of type and payload, a length and a type) and every write batch from the first damaged
 * record on is counted: each is one block (the indexer writes one batch per block). The logs are
 * read only when RocksDB's own recovery found them damaged ({@code IndexStore.open}), in one
 * sequential pass, a block at a time (constant memory). Stateless.
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

    /** Opens a store with a chosen write-ahead-log recovery mode. */
    interface Opener<T> {
        T open(WALRecoveryMode mode) throws RocksDBException;
    }

    /**
     * Opens with RocksDB replaying the write-ahead logs alone, refusing any damage in them (after a
     * clean close, the usual case, nothing else reads them). Only when RocksDB finds a log damaged
     * are the logs scanned ({@link #scan}) to say what point-in-time recovery drops, and the store
     * opened with that recovery; the WARN names the tip that survived.
     */
    static <T> T open(Path dir, Opener<T> opener, Function<T, Optional<ChainTip>> tip) throws RocksDBException {
        try {
            return opener.open(WALRecoveryMode.AbsoluteConsistency);
        } catch (RocksDBException e) {
            if (!StoreDamage.isDamage(e)) {
                throw e;
            }
            Optional<Damage> wal = scan(dir);
            T store = opener.open(WALRecoveryMode.PointInTimeRecovery);
            wal.ifPresent(d -> warn(dir, d, tip.apply(store)));
            return store;
        }
    }

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
        long read = 0;
        byte[] block = new byte[BLOCK];
        ByteBuffer b = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        for (Path log : logs) {
            // One 32 KiB block at a time: a record never crosses a block, and a log can be far
            // larger than the heap a small server runs with.
            try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ)) {
                long blockStart = 0;
                int filled;
                while ((filled = readBlock(in, b)) > 0) {
                    int pos = 0;
                    while (pos + HEADER <= filled) {
                        int crc = b.getInt(pos);
                        int length = b.getShort(pos + 4) & 0xffff;
                        int type = block[pos + 6] & 0xff;
                        if (type == 0 && length == 0) {
                            break; // zeroes: preallocated space, nothing written here
                        }
                        boolean fits = pos + HEADER + length <= filled;
                        boolean sound = fits && crc == masked(block, pos + 6, length + 1);
                        if (!sound && damagedFile == null) {
                            damagedFile = log;
                            damagedAt = blockStart + pos;
                            batches++; // the damaged record began a batch (or was part of one)
                        } else if (sound && damagedFile != null && (type == FULL || type == FIRST)) {
                            batches++;
                        }
                        if (!fits) {
                            break; // the rest of the block is lost
                        }
                        pos += HEADER + length; // a record whose length still fits is stepped over
                    }
                    blockStart += filled;
                }
                read += blockStart;
            } catch (IOException e) {
                continue;
            }
        }
        LOG.debug("event=wal_scanned dir={} logs={} bytes={}", dir, logs.size(), read);
        return damagedFile == null ? Optional.empty() : Optional.of(new Damage(damagedFile, damagedAt, batches));
    }

    /** Fills {@code b} from the channel up to one block; the bytes read, 0 at the end. */
    private static int readBlock(FileChannel in, ByteBuffer b) throws IOException {
        b.clear();
        while (b.hasRemaining() && in.read(b) >= 0) {
            // keep reading: a channel may return fewer bytes than asked
        }
        return b.position();
    }

    private static int masked(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        int c = (int) crc.getValue();
        return ((c >>> 15) | (c << 17)) + MASK_DELTA;
    }

    /** Logs a WARN naming the damaged log and how many blocks the open dropped and will index again. */
    static void warn(Path dir, Damage damage, Optional<ChainTip> recovered) {
        int height = recovered.map(ChainTip::height).orElse(-1);
        LOG.warn(
                "event=wal_recovery_dropped_data dir={} file={} offset={} recovered_height={} blocks_to_reindex={}",
                dir,
                damage.file().getFileName(),
                damage.offset(),
                height,
                damage.batches());
    }
}
