package org.blockfilter.server.http.internal;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.server.index.FilterIndexReader;
import org.blockfilter.server.index.FilterView;
import org.eclipse.jetty.ee10.servlet.HttpOutput;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * The body of a binary range answer (block hash, CompactSize length and filter of each block),
 * read by the cursor straight into a direct buffer from Jetty's pool and written from it, with no
 * copy on the heap: at ~20 MB per 1000-filter answer the copies, not the request, are the cost.
 * One per answer; not thread-safe.
 */
final class BinaryRangeWriter {
    /** The buffer the answer goes out through (Jetty's pool, direct memory). */
    static final int BUFFER = 256 * 1024;

    private final Context ctx;
    private final OutputStream out;
    private final byte[] size = new byte[9];
    private byte[] heapCopy;
    private long sent;

    BinaryRangeWriter(Context ctx) throws IOException {
        this.ctx = ctx;
        this.out = ctx.res().getOutputStream();
    }

    /** Body bytes handed to the response so far. */
    long sent() {
        return sent;
    }

    /**
     * Writes the whole range to the response. A failure before the first byte (damage found by
     * the first read) propagates as it is, for the route's error mapping; the status goes out
     * with the first bytes.
     */
    void write(FilterIndexReader.RangeCursor r) throws IOException {
        ServletContextRequest core = ServletContextRequest.getServletContextRequest(ctx.req());
        if (core == null) {
            stream(r, ByteBuffer.allocateDirect(BUFFER));
            return;
        }
        RetainableByteBuffer pooled = core.getComponents().getByteBufferPool().acquire(BUFFER, true);
        try {
            stream(r, pooled.getByteBuffer());
        } finally {
            pooled.release();
        }
    }

    private void stream(FilterIndexReader.RangeCursor r, ByteBuffer buffer) throws IOException {
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
        sent += buffer.remaining();
        if (out instanceof HttpOutput jetty) {
            jetty.write(buffer); // from the direct buffer to the socket
        } else {
            if (heapCopy == null) {
                heapCopy = new byte[BUFFER];
            }
            while (buffer.hasRemaining()) {
                int n = Math.min(heapCopy.length, buffer.remaining());
                buffer.get(heapCopy, 0, n);
                out.write(heapCopy, 0, n);
            }
        }
        buffer.clear();
    }
}
