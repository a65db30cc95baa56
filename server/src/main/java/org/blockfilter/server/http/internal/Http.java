package org.blockfilter.server.http.internal;

import io.javalin.http.Context;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.function.Supplier;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.read.FilterIndexReader;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Request parsing and response writing shared by the controllers: representation choice,
 * parameter validation (typed 400s), and a single way to send a body so that bytes are counted.
 */
public final class Http {
    private static final Logger LOG = LoggerFactory.getLogger(Http.class);
    public static final String OCTET_STREAM = "application/octet-stream";
    public static final String JSON = "application/json";
    /** The error code of a read that found the index damaged (a 503). */
    public static final String INDEX_DAMAGED = "index_damaged";
    /** Request attribute: body bytes sent, read by the metrics hook. */
    public static final String SENT_BYTES = "blockfilter.sentBytes";

    private Http() {}

    /** Binary if the client asks for {@code application/octet-stream}, JSON otherwise. */
    public static boolean wantsBinary(Context ctx) {
        String accept = ctx.header("Accept");
        return accept != null && accept.contains(OCTET_STREAM);
    }

    public static void send(Context ctx, int status, String contentType, byte[] body, String cacheControl) {
        ctx.status(status);
        ctx.contentType(contentType);
        ctx.header("Cache-Control", cacheControl);
        ctx.header("Vary", "Accept, Accept-Encoding");
        if (OCTET_STREAM.equals(contentType)) {
            ctx.disableCompression(); // filters are already dense; gzip only costs CPU
        }
        ctx.attribute(SENT_BYTES, (long) body.length);
        ctx.result(body);
    }

    /** JSON or binary, as the client asked; only the chosen one is encoded. */
    public static void sendEither(Context ctx, Supplier<byte[]> json, Supplier<byte[]> binary, String cacheControl) {
        if (wantsBinary(ctx)) {
            send(ctx, 200, OCTET_STREAM, binary.get(), cacheControl);
        } else {
            send(ctx, 200, JSON, json.get(), cacheControl);
        }
    }

    /** Writes a body to a stream; may be called once. */
    @FunctionalInterface
    public interface BodyWriter {
        void write(OutputStream out) throws IOException;
    }

    /**
     * JSON or binary, as the client asked, written to the response as it is produced (chunked
     * transfer, no Content-Length) through a {@value #STREAM_BUFFER}-byte buffer. Call only after
     * every check that could fail the request: the status is sent with the first bytes. A client
     * that goes away mid-body is logged at debug and ends the request quietly.
     */
    public static void streamEither(Context ctx, BodyWriter json, BodyWriter binary, String cacheControl) {
        boolean bin = wantsBinary(ctx);
        ctx.status(200);
        ctx.contentType(bin ? OCTET_STREAM : JSON);
        ctx.header("Cache-Control", cacheControl);
        ctx.header("Vary", "Accept, Accept-Encoding");
        if (bin) {
            ctx.disableCompression(); // filters are already dense; gzip only costs CPU
        }
        CountingOutputStream counted = new CountingOutputStream(ctx.outputStream());
        BufferedOutputStream out = new BufferedOutputStream(counted, STREAM_BUFFER);
        try {
            (bin ? binary : json).write(out);
            out.flush();
        } catch (IOException e) {
            LOG.debug("client left {} after {} body bytes: {}", ctx.path(), counted.count, e.toString());
        } finally {
            ctx.attribute(SENT_BYTES, counted.count);
        }
    }

    static final int STREAM_BUFFER = 64 * 1024;

    /**
     * A range of filters as the client asked: JSON through {@link #streamEither}, binary read by
     * the cursor into a direct buffer and written from it ({@link BinaryRangeWriter}). Same
     * contract as {@link #streamEither}.
     */
    public static void streamRange(Context ctx, FilterIndexReader.RangeCursor r, String cacheControl) {
        if (!wantsBinary(ctx)) {
            streamEither(ctx, out -> Representations.writeRangeJson(r, out), null, cacheControl);
            return;
        }
        ctx.status(200);
        ctx.contentType(OCTET_STREAM);
        ctx.header("Cache-Control", cacheControl);
        ctx.header("Vary", "Accept, Accept-Encoding");
        ctx.disableCompression(); // filters are already dense; gzip only costs CPU
        BinaryRangeWriter body = null;
        try {
            body = new BinaryRangeWriter(BinaryRangeWriter.of(ctx.res().getOutputStream()));
            ServletContextRequest core = ServletContextRequest.getServletContextRequest(ctx.req());
            if (core == null) {
                body.write(r, ByteBuffer.allocateDirect(BinaryRangeWriter.BUFFER));
            } else {
                RetainableByteBuffer pooled =
                        core.getComponents().getByteBufferPool().acquire(BinaryRangeWriter.BUFFER, true);
                try {
                    body.write(r, pooled.getByteBuffer());
                } finally {
                    pooled.release();
                }
            }
        } catch (IOException e) {
            LOG.debug(
                    "client left {} after {} body bytes: {}", ctx.path(), body == null ? 0 : body.sent(), e.toString());
        } finally {
            ctx.attribute(SENT_BYTES, body == null ? 0L : body.sent());
        }
    }

    private static final class CountingOutputStream extends FilterOutputStream {
        private long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }

    public static String requiredQuery(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty()) {
            throw new BadRequestException("missing_parameter", "query parameter " + name + " is required");
        }
        return v;
    }

    /** A height or count: decimal digits, 0 .. Integer.MAX_VALUE. */
    public static int nonNegativeInt(String name, String raw) {
        if (raw.startsWith("-") && raw.length() > 1 && raw.substring(1).chars().allMatch(Character::isDigit)) {
            throw new BadRequestException("bad_" + name, name + " must not be negative: " + raw);
        }
        if (raw.isEmpty() || !raw.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new BadRequestException("bad_" + name, name + " must be a decimal integer: " + abbreviate(raw));
        }
        String digits = raw.replaceFirst("^0+(?=.)", "");
        if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
            throw new BadRequestException("bad_" + name, name + " is too large: " + abbreviate(raw));
        }
        return Integer.parseInt(digits);
    }

    public static Sha256Hash hash(String name, String raw) {
        Sha256Hash hash = HashHex.parseHash(raw);
        if (hash == null) {
            throw new BadRequestException(
                    "bad_hash",
                    name + " must be 64 hex digits (display order), got " + raw.length() + " characters: "
                            + abbreviate(raw));
        }
        return hash;
    }

    static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** Whether an If-None-Match header matches the entity tag (strong or weak comparison). */
    public static boolean matchesETag(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.trim();
            if (c.startsWith("W/")) {
                c = c.substring(2);
            }
            if (c.equals("*") || c.equals(etag)) {
                return true;
            }
        }
        return false;
    }
}
