package org.blockfilter.server.http.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.FilterView;
import org.eclipse.jetty.ee10.servlet.HttpOutput;

/**
 * The body of a binary range answer (block hash, CompactSize length and filter of each block),
 * read by the cursor straight into a direct buffer and written from it, with no copy on the heap:
 * at ~20 MB per 1000-filter answer the copies, not the request, are the cost. The one writer of
 * both ways a range is answered ({@link BinaryFilterFastPath} and the route, {@link
 * Http#streamRange}), each with its own sink. One per answer; not thread-safe.
 */
final class BinaryRangeWriter {
    /** The buffer an answer goes out through (direct memory, from Jetty's pool where there is one). */
    static final int BUFFER = 256 * 1024;

    /** Where the bytes go: writes all of {@code data}, blocking until the response has taken them. */
    @FunctionalInterface
    interface Sink {
        void write(ByteBuffer data) throws IOException;
    }

    private final Sink sink;
    private final byte[] size = new byte[9];
    private long sent;

    BinaryRangeWriter(Sink sink) {
        this.sink = sink;
    }

    /** A servlet response's output: Jetty's takes the direct buffer as it is, others get heap copies. */
    static Sink of(OutputStream out) {
        if (out instanceof HttpOutput jetty) {
            return jetty::write;
        }
        byte[] copy = new byte[64 * 1024];
        return data -> {
            while (data.hasRemaining()) {
                int n = Math.min(copy.length, data.remaining());
                data.get(copy, 0, n);
                out.write(copy, 0, n);
            }
        };
    }

    /** Body bytes handed to the sink so far. */
    long sent() {
        return sent;
    }

    /**
     * Writes the whole range through {@code buffer} (direct, any content). A failure before the
     * first byte (damage found by the first read) propagates before anything reached the sink.
     */
    void write(FilterIndexReader.RangeCursor r, ByteBuffer buffer) throws IOException {
        buffer.clear();
        while (r.hasNext()) {
            if (r.writeNextEntry(buffer)) {
                continue;
            }
            if (buffer.position() > 0) {
                flush(buffer);
                if (r.writeNextEntry(buffer)) {
                    continue;
                }
            }
            FilterView f = r.nextView(); // larger than the buffer, or a cursor that cannot write into one
            if (buffer.remaining() < 32 + size.length) {
                flush(buffer);
            }
            buffer.put(f.blockHash().serialize());
            buffer.put(size, 0, CompactSize.write(f.filterLength(), size, 0));
            ByteBuffer filter = f.filter();
            while (filter.hasRemaining()) {
                if (!buffer.hasRemaining()) {
                    flush(buffer);
                }
                int n = Math.min(buffer.remaining(), filter.remaining());
                buffer.put(filter.slice(filter.position(), n));
                filter.position(filter.position() + n);
            }
        }
        flush(buffer);
    }

    private void flush(ByteBuffer buffer) throws IOException {
        buffer.flip();
        if (buffer.hasRemaining()) {
            sent += buffer.remaining();
            sink.write(buffer);
        }
        buffer.clear();
    }
}
