package org.blockfilter.server.export;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.blockfilter.filters.wire.WireWriter;
import org.blockfilter.server.store.StoredBlock;

/**
 * One range file of an export (kind {@code headers}, {@code filter-headers} or {@code filters})
 * written block by block as the range is read, to a temporary file whose SHA-256 is taken on the
 * way; {@link #finish} then gives it its content-addressed name. Holds one block's bytes at a
 * time, never the range. Not thread-safe; one owner.
 */
final class RangeFile implements AutoCloseable {
    static final String HEADERS = "headers";
    static final String FILTER_HEADERS = "filter-headers";
    static final String FILTERS = "filters";

    private final String kind;
    private final int count;
    private final Path tmp;
    private final MessageDigest digest;
    private final OutputStream stream;
    private long bytes;
    private boolean first = true;
    private boolean finished;

    /**
     * @param count the blocks the range has (the filter-headers file starts with it)
     */
    RangeFile(Path out, String kind, int start, int stop) throws IOException {
        if (!kind.equals(HEADERS) && !kind.equals(FILTER_HEADERS) && !kind.equals(FILTERS)) {
            throw new IllegalArgumentException("unknown kind " + kind);
        }
        this.kind = kind;
        this.count = stop - start + 1;
        Path dir = out.resolve(kind);
        Files.createDirectories(dir);
        this.tmp = dir.resolve(start + "-" + stop + ".tmp");
        this.digest = sha256();
        this.stream = new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16), digest);
    }

    String kind() {
        return kind;
    }

    /** Appends the next block of the range. */
    void append(StoredBlock b) throws IOException {
        WireWriter w = new WireWriter();
        switch (kind) {
            case HEADERS -> w.bytes(b.header());
            case FILTER_HEADERS -> {
                if (first) {
                    w.hash(b.prevFilterHeader()).compactSize(count);
                }
                w.hash(b.filterHash());
            }
            default -> w.hash(b.blockHash()).varBytes(b.filter());
        }
        first = false;
        byte[] piece = w.toByteArray();
        stream.write(piece);
        bytes += piece.length;
    }

    /** The file's content-addressed name (relative to the export) and size, once complete. */
    record Written(String path, String sha256, long bytes) {}

    /**
     * Closes the file and moves it to {@code kind/START-STOP.SHA256.bin}; an existing file of
     * that name and size already holds these bytes and is kept.
     */
    Written finish(Path out, int start, int stop) throws IOException {
        stream.close();
        finished = true;
        String sha = HexFormat.of().formatHex(digest.digest());
        String path = kind + "/" + start + "-" + stop + "." + sha + ".bin";
        Path file = out.resolve(path);
        if (Files.isRegularFile(file) && Files.size(file) == bytes) {
            Files.delete(tmp);
        } else {
            StaticExport.move(tmp, file);
        }
        return new Written(path, sha, bytes);
    }

    /** Removes the temporary file of a range that was not finished. */
    @Override
    public void close() throws IOException {
        if (!finished) {
            stream.close();
            Files.deleteIfExists(tmp);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }
}
