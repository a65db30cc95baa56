package org.blockfilter.wallet.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A flat file of fixed-size records that grows by appends (neutrino's {@code headerfs} keeps block
 * and filter headers the same way): record {@code i} is at byte offset {@code i * (size + 4)}, its
 * {@code size} payload bytes followed by the CRC32C of the record's index (8 bytes, big-endian)
 * and payload, big-endian. There is no file header: which height record 0 holds, and how many
 * records are committed, is said by the wallet document. Bytes past the last whole record (a
 * crash during an append) are never read, and the next write replaces them.
 *
 * <p>The CRC finds accidental damage (a flipped bit, a record moved or shortened) and the error
 * names the file and the record; like the document's checksum it is no protection against an
 * edit made on purpose. Writes go through {@link #write}, which fsyncs before it returns, so the
 * document that commits them can be written after it.
 *
 * <p>Not thread-safe. The channel is opened on first use and stays open.
 */
public final class RecordFile implements AutoCloseable {
    private static final int CRC_BYTES = 4;

    private final Path path;
    private final int size;
    private FileChannel channel;
    private boolean writable;
    private long bytesWritten;

    /** A record file at {@code path} with {@code payloadSize}-byte records; nothing is opened until first use. */
    public RecordFile(Path path, int payloadSize) {
        this.path = path;
        this.size = payloadSize;
    }

    /** The file's path. */
    public Path path() {
        return path;
    }

    /** Whole records in the file now (0 when it does not exist). */
    public long count() {
        try {
            if (channel == null && !Files.exists(path)) {
                return 0;
            }
            return channel(false).size() / (size + CRC_BYTES);
        } catch (IOException e) {
            throw failure("read", e);
        }
    }

    /** The payload of record {@code i}; a record that is missing or fails its CRC is an error naming the file. */
    public byte[] read(long i) {
        return read(i, 1).get(0);
    }

    /** The payloads of records {@code from .. from+n-1}. */
    public List<byte[]> read(long from, int n) {
        int stride = size + CRC_BYTES;
        ByteBuffer buf = ByteBuffer.allocate(n * stride);
        try {
            FileChannel ch = channel(false);
            long pos = from * stride;
            while (buf.hasRemaining()) {
                int r = ch.read(buf, pos + buf.position());
                if (r < 0) {
                    throw new WalletFileException(
                            "wallet file " + path.toAbsolutePath() + " is damaged: it ends before record "
                                    + (from + buf.position() / stride) + " (it has " + count() + ")",
                            null);
                }
            }
        } catch (IOException e) {
            throw failure("read", e);
        }
        buf.flip();
        List<byte[]> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            byte[] payload = new byte[size];
            buf.get(payload);
            int stored = buf.getInt();
            if (stored != crc(from + k, payload)) {
                throw new WalletFileException(
                        "wallet file " + path.toAbsolutePath() + " is damaged: record " + (from + k)
                                + " fails its checksum (corrupted on disk); the wallet cannot use it",
                        null);
            }
            out.add(payload);
        }
        return out;
    }

    /**
     * Writes {@code records} as records {@code from, from+1, ...}, drops every record after them and
     * fsyncs. {@code from} must be at most {@link #count()}.
     */
    public void write(long from, List<byte[]> records) {
        int stride = size + CRC_BYTES;
        try {
            FileChannel ch = channel(true);
            if (from > ch.size() / stride) {
                throw new IllegalStateException(
                        "write at record " + from + " past the end of " + path + " (" + ch.size() / stride + ")");
            }
            ByteBuffer buf = ByteBuffer.allocate(records.size() * stride);
            for (int k = 0; k < records.size(); k++) {
                byte[] p = records.get(k);
                if (p.length != size) {
                    throw new IllegalArgumentException("record of " + p.length + " bytes, expected " + size);
                }
                buf.put(p).putInt(crc(from + k, p));
            }
            buf.flip();
            long pos = from * stride;
            while (buf.hasRemaining()) {
                pos += ch.write(buf, pos);
            }
            ch.truncate(pos);
            ch.force(false);
            bytesWritten += (long) records.size() * stride;
        } catch (IOException e) {
            throw failure("write", e);
        }
    }

    /** Bytes this object has written so far (for tests and benchmarks of what a save costs). */
    public long bytesWritten() {
        return bytesWritten;
    }

    private FileChannel channel(boolean write) throws IOException {
        if (channel != null && (writable || !write)) {
            return channel;
        }
        if (channel != null) {
            channel.close();
        }
        channel = write
                ? FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.READ);
        writable = write;
        return channel;
    }

    private int crc(long index, byte[] payload) {
        CRC32C c = new CRC32C();
        c.update(ByteBuffer.allocate(8).putLong(0, index));
        c.update(payload);
        return (int) c.getValue();
    }

    private WalletFileException failure(String what, IOException e) {
        return new WalletFileException("could not " + what + " " + path.toAbsolutePath() + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // Nothing left to release.
            }
            channel = null;
        }
    }
}
