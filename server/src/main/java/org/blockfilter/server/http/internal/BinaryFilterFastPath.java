package org.blockfilter.server.http.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.FilterView;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two answers light clients fetch most, served by Jetty directly in front of Javalin: {@code
 * GET /api/v1/filters/<block hash>} and {@code GET /api/v1/filters?start_height=&stop_hash=}, both
 * with {@code Accept: application/octet-stream}, found in the index and with nothing else to
 * negotiate (no {@code Origin}, no {@code If-None-Match}, no other or escaped query parameters).
 * The bytes and headers are those of the Javalin routes ({@link ApiController#filter}, {@link
 * ApiController#filters}); the filter is written from the bytes the index read, with no copy on
 * the heap. Everything else, every error included, goes on to Javalin, which answers as it always
 * has (the routes, their checks and the exception mapping live there only). Requests answered
 * here are counted in the same route metrics. Thread-safe; holds no per-request state.
 */
public final class BinaryFilterFastPath extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(BinaryFilterFastPath.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String FILTERS = "/api/v1/filters";
    private static final String FILTER_PREFIX = FILTERS + "/";
    /** The route templates of the Javalin routes, as {@link RestMetrics} records them. */
    private static final String SINGLE_ROUTE = FILTER_PREFIX + "{hashOrHeight}";

    private static final HttpField CONTENT_TYPE = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, Http.OCTET_STREAM);
    private static final HttpField VARY = new PreEncodedHttpField(HttpHeader.VARY, "Accept, Accept-Encoding");
    private static final HttpField IMMUTABLE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, CachePolicy.IMMUTABLE);
    /** Range answers are written through a buffer of this size (Jetty's pool, direct memory). */
    static final int STREAM_BUFFER = 256 * 1024;

    private final FilterIndexReader index;
    private final CachePolicy cache;
    private final RestMetrics metrics;

    public BinaryFilterFastPath(FilterIndexReader index, CachePolicy cache, RestMetrics metrics) {
        this.index = Objects.requireNonNull(index, "index");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (plain(request)) {
            String path = request.getHttpURI().getPath();
            String query = request.getHttpURI().getQuery();
            if (query == null && path.length() == FILTER_PREFIX.length() + 64 && path.startsWith(FILTER_PREFIX)) {
                Sha256Hash hash = HashHex.parseHash(path.substring(FILTER_PREFIX.length()));
                if (hash != null && single(hash, response, callback)) {
                    return true;
                }
            } else if (query != null && path.equals(FILTERS) && range(query, request, response, callback)) {
                return true;
            }
        }
        return super.handle(request, response, callback);
    }

    /** A GET for binary with nothing the Javalin routes would treat differently. */
    private static boolean plain(Request request) {
        HttpFields h = request.getHeaders();
        String accept = h.get(HttpHeader.ACCEPT);
        return HttpMethod.GET.is(request.getMethod())
                && accept != null
                && accept.contains(Http.OCTET_STREAM)
                && !h.contains(HttpHeader.ORIGIN)
                && !h.contains(HttpHeader.IF_NONE_MATCH);
    }

    private boolean single(Sha256Hash hash, Response response, Callback callback) {
        long t0 = System.nanoTime();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        Optional<FilterView> found;
        try {
            found = index.filterView(hash);
        } catch (RuntimeException e) {
            return false; // Javalin reads again and maps the error
        }
        if (found.isEmpty()) {
            return false;
        }
        FilterView f = found.get();
        ByteBuffer body = f.filter();
        HttpFields.Mutable h = response.getHeaders();
        h.put(CONTENT_TYPE);
        h.put(HttpHeader.ETAG, '"' + f.filterHash().toString() + '"');
        h.put(cacheControl(f.active() ? f.height() : -1));
        h.put(VARY);
        h.put(HttpHeader.CONTENT_LENGTH, body.remaining());
        response.setStatus(200);
        int length = body.remaining();
        response.write(true, body, callback);
        metrics.request(
                "GET", SINGLE_ROUTE, 200, System.nanoTime() - t0, length, THREADS.getCurrentThreadCpuTime() - cpu0);
        return true;
    }

    private boolean range(String query, Request request, Response response, Callback callback) {
        long t0 = System.nanoTime();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        RangeQuery q = RangeQuery.parse(query);
        if (q == null) {
            return false;
        }
        Optional<FilterIndexReader.RangeCursor> opened;
        try {
            opened = index.openRange(q.startHeight, q.stopHash);
        } catch (RuntimeException e) {
            return false;
        }
        if (opened.isEmpty()) {
            return false;
        }
        long[] sent = {0};
        boolean toRoutes = false;
        try (FilterIndexReader.RangeCursor r = opened.get()) {
            if ((long) r.stopHeight() - q.startHeight + 1 > Bip157.MAX_CFILTERS) {
                return false;
            }
            HttpFields.Mutable h = response.getHeaders();
            h.put(CONTENT_TYPE);
            h.put(cacheControl(r.stopHeight()));
            h.put(VARY);
            response.setStatus(200);
            RetainableByteBuffer pooled =
                    request.getComponents().getByteBufferPool().acquire(STREAM_BUFFER, true);
            try {
                stream(r, response, pooled.getByteBuffer(), sent);
                callback.succeeded();
            } catch (IOException | RuntimeException e) {
                if (response.isCommitted()) {
                    // The status went out with the first bytes: a failure now can only cut the answer.
                    LOG.debug("range {} ended after {} body bytes: {}", query, sent[0], e.toString());
                    callback.failed(e);
                } else {
                    response.reset(); // nothing sent yet: the route reads again and answers the error
                    toRoutes = true;
                }
            } finally {
                pooled.release();
            }
        }
        if (toRoutes) {
            return false;
        }
        metrics.request("GET", FILTERS, 200, System.nanoTime() - t0, sent[0], THREADS.getCurrentThreadCpuTime() - cpu0);
        return true;
    }

    /** Writes block hash, CompactSize length and filter of each block, adding the bytes sent to {@code sent[0]}. */
    private static void stream(FilterIndexReader.RangeCursor r, Response response, ByteBuffer out, long[] sent)
            throws IOException {
        out.clear();
        byte[] size = new byte[9];
        while (r.hasNext()) {
            if (r.writeNextEntry(out)) {
                continue;
            }
            if (out.position() > 0) {
                sent[0] += flush(response, false, out);
                if (r.writeNextEntry(out)) {
                    continue;
                }
            }
            FilterView f = r.nextView(); // larger than the buffer, or a cursor that cannot write into one
            if (out.remaining() < 32 + size.length) {
                sent[0] += flush(response, false, out);
            }
            out.put(f.blockHash().serialize());
            out.put(size, 0, CompactSize.write(f.filterLength(), size, 0));
            ByteBuffer filter = f.filter();
            while (filter.hasRemaining()) {
                if (!out.hasRemaining()) {
                    sent[0] += flush(response, false, out);
                }
                int n = Math.min(out.remaining(), filter.remaining());
                out.put(filter.slice(filter.position(), n));
                filter.position(filter.position() + n);
            }
        }
        sent[0] += flush(response, true, out);
    }

    private static int flush(Response response, boolean last, ByteBuffer out) throws IOException {
        out.flip();
        int n = out.remaining();
        try (Blocker.Callback done = Blocker.callback()) {
            response.write(last, out, done);
            done.block();
        }
        out.clear();
        return n;
    }

    private HttpField cacheControl(int height) {
        String value = cache.forHeight(height);
        return value.equals(CachePolicy.IMMUTABLE) ? IMMUTABLE : new HttpField(HttpHeader.CACHE_CONTROL, value);
    }

    /** {@code start_height=<digits>&stop_hash=<64 hex>}, in either order, each once, nothing else. */
    private record RangeQuery(int startHeight, Sha256Hash stopHash) {
        static RangeQuery parse(String query) {
            int start = -1;
            Sha256Hash stop = null;
            for (String param : query.split("&", -1)) {
                if (param.startsWith("start_height=") && start < 0) {
                    start = height(param.substring("start_height=".length()));
                    if (start < 0) {
                        return null;
                    }
                } else if (param.startsWith("stop_hash=") && stop == null) {
                    stop = HashHex.parseHash(param.substring("stop_hash=".length()));
                    if (stop == null) {
                        return null;
                    }
                } else {
                    return null;
                }
            }
            return start >= 0 && stop != null ? new RangeQuery(start, stop) : null;
        }

        /** 1-9 decimal digits (always an int), else -1 and Javalin's checks decide. */
        private static int height(String raw) {
            if (raw.isEmpty() || raw.length() > 9) {
                return -1;
            }
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
            }
            return Integer.parseInt(raw);
        }
    }
}
