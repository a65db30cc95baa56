package org.blockfilter.server.http.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.FilterView;
import org.blockfilter.server.store.StoreException;
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
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two answers light clients fetch most, served by Jetty directly in front of Javalin: {@code
 * GET /api/v1/filters/<block hash>} and {@code GET /api/v1/filters?start_height=&stop_hash=}, both
 * with {@code Accept: application/octet-stream}, found in the index and with nothing else to
 * negotiate (no {@code Origin}, no {@code If-None-Match}, no other or escaped query parameters).
 * The bytes and headers are those of the Javalin routes ({@link ApiController#filter}, {@link
 * ApiController#filters}); values are checked by the routes' own parsers ({@link HashHex#parseHash},
 * {@link Http#nonNegativeInt}, {@link Http#hash}) and a range is written by the route's own writer
 * ({@link BinaryRangeWriter}). A damaged read is answered here as the routes' error mapping
 * answers it ({@code 503 index_damaged}), so that it is read and counted once; everything else,
 * other errors included, goes on to Javalin, which answers as it always has. Requests answered
 * here are counted in the same route metrics. Thread-safe; holds no per-request state.
 */
public final class BinaryFilterFastPath extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(BinaryFilterFastPath.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String FILTERS = "/api/v1/filters";
    private static final String FILTER_PREFIX = FILTERS + "/";
    /** The route templates of the Javalin routes, as {@link RestMetrics} records them. */
    private static final String SINGLE_ROUTE = FILTER_PREFIX + "{hashOrHeight}";
    /** The buffer one filter is read into: a mainnet filter's record fits (larger ones are read onto the heap). */
    private static final int SINGLE_BUFFER = 64 * 1024;

    private static final HttpField CONTENT_TYPE = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, Http.OCTET_STREAM);
    private static final HttpField VARY = new PreEncodedHttpField(HttpHeader.VARY, "Accept, Accept-Encoding");
    private static final HttpField JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, Http.JSON);
    private static final HttpField NO_STORE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, CachePolicy.NO_STORE);
    private static final HttpField IMMUTABLE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, CachePolicy.IMMUTABLE);

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
            if (request.getHttpURI().getQuery() == null
                    && path.length() == FILTER_PREFIX.length() + 64
                    && path.startsWith(FILTER_PREFIX)) {
                Sha256Hash hash = HashHex.parseHash(path.substring(FILTER_PREFIX.length()));
                if (hash != null && single(hash, request, response, callback)) {
                    return true;
                }
            } else if (request.getHttpURI().getQuery() != null
                    && path.equals(FILTERS)
                    && range(request.getHttpURI().getQuery(), request, response, callback)) {
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

    private boolean single(Sha256Hash hash, Request request, Response response, Callback callback) {
        long t0 = System.nanoTime();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        // The record is read into pooled direct memory and written from there; the buffer goes
        // back to the pool when the write completes (or here, if nothing is written from it).
        RetainableByteBuffer pooled =
                request.getComponents().getByteBufferPool().acquire(SINGLE_BUFFER, true);
        Optional<FilterView> found;
        try {
            found = index.filterView(hash, pooled.getByteBuffer().clear());
        } catch (StoreException e) {
            pooled.release();
            if (!e.damaged()) {
                return false; // Javalin reads again, logs and maps the error
            }
            return damaged(e, response, callback, t0, cpu0, SINGLE_ROUTE);
        } catch (RuntimeException e) {
            pooled.release();
            return false;
        }
        if (found.isEmpty()) {
            pooled.release();
            return false;
        }
        FilterView f = found.get();
        ByteBuffer body = f.filter();
        int length = body.remaining();
        HttpFields.Mutable h = response.getHeaders();
        h.put(CONTENT_TYPE);
        h.put(HttpHeader.ETAG, '"' + f.filterHash().toString() + '"');
        h.put(cacheControl(f.active() ? f.height() : -1));
        h.put(VARY);
        h.put(HttpHeader.CONTENT_LENGTH, length);
        response.setStatus(200);
        response.write(true, body, Callback.from(callback, pooled::release));
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
        } catch (StoreException e) {
            return e.damaged() && damaged(e, response, callback, t0, cpu0, FILTERS);
        } catch (RuntimeException e) {
            return false;
        }
        if (opened.isEmpty()) {
            return false;
        }
        BinaryRangeWriter body = new BinaryRangeWriter(data -> {
            try (Blocker.Callback done = Blocker.callback()) {
                response.write(false, data, done);
                done.block();
            }
        });
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
                    request.getComponents().getByteBufferPool().acquire(BinaryRangeWriter.BUFFER, true);
            try {
                body.write(r, pooled.getByteBuffer());
                response.write(true, BufferUtil.EMPTY_BUFFER, callback);
            } catch (IOException | RuntimeException e) {
                if (response.isCommitted()) {
                    // The status went out with the first bytes: a failure now can only cut the answer.
                    LOG.debug("range {} ended after {} body bytes: {}", query, body.sent(), e.toString());
                    callback.failed(e);
                } else if (e instanceof StoreException s && s.damaged()) {
                    response.reset();
                    return damaged(s, response, callback, t0, cpu0, FILTERS);
                } else {
                    response.reset(); // nothing sent yet: the route reads again and answers the error
                    return false;
                }
            } finally {
                pooled.release();
            }
        }
        metrics.request(
                "GET", FILTERS, 200, System.nanoTime() - t0, body.sent(), THREADS.getCurrentThreadCpuTime() - cpu0);
        return true;
    }

    /** {@link #damaged(StoreException, Response, Callback)}, counted in the route's metrics. */
    private boolean damaged(StoreException e, Response response, Callback callback, long t0, long cpu0, String route) {
        int length = damaged(e, response, callback);
        metrics.request("GET", route, 503, System.nanoTime() - t0, length, THREADS.getCurrentThreadCpuTime() - cpu0);
        return true;
    }

    /** The route's answer to damage (RestServer's error mapping): 503 {@code index_damaged}. */
    private static int damaged(StoreException e, Response response, Callback callback) {
        byte[] body = Representations.errorJson(503, Http.INDEX_DAMAGED, e.getMessage());
        HttpFields.Mutable h = response.getHeaders();
        h.put(JSON);
        h.put(NO_STORE);
        h.put(VARY);
        h.put(HttpHeader.CONTENT_LENGTH, body.length);
        response.setStatus(503);
        response.write(true, ByteBuffer.wrap(body), callback);
        return body.length;
    }

    private HttpField cacheControl(int height) {
        String value = cache.forHeight(height);
        return value.equals(CachePolicy.IMMUTABLE) ? IMMUTABLE : new HttpField(HttpHeader.CACHE_CONTROL, value);
    }

    /**
     * {@code start_height=<height>&stop_hash=<hash>}, in either order, each once, nothing else and
     * no escapes; the values are checked by the route's own parsers ({@link Http#nonNegativeInt},
     * {@link Http#hash}). Null for anything else: the route answers it (its 400s included).
     */
    private record RangeQuery(int startHeight, Sha256Hash stopHash) {
        static RangeQuery parse(String query) {
            String start = null;
            String stop = null;
            for (String param : query.split("&", -1)) {
                if (param.startsWith("start_height=") && start == null) {
                    start = param.substring("start_height=".length());
                } else if (param.startsWith("stop_hash=") && stop == null) {
                    stop = param.substring("stop_hash=".length());
                } else {
                    return null;
                }
            }
            if (start == null || stop == null || escaped(start) || escaped(stop)) {
                return null;
            }
            try {
                return new RangeQuery(Http.nonNegativeInt("start_height", start), Http.hash("stop_hash", stop));
            } catch (BadRequestException e) {
                return null;
            }
        }

        private static boolean escaped(String raw) {
            return raw.indexOf('%') >= 0 || raw.indexOf('+') >= 0;
        }
    }
}
